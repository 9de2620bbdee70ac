/**
 * A real npm registry for the e2e suites: Verdaccio, in this process, on 127.0.0.1 and a free port,
 * offline (no uplinks), its storage in a temp folder that `stop()` removes. Packages get in only through
 * the registry's own publish API (`publish`), as `npm publish` would send them.
 */

import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runServer } from "verdaccio";
import { type PublishedVersion, type PublishSource, packagePath, publishPackage } from "./publish.ts";

export interface RegistryOptions {
  /**
   * A private registry: reading needs `Authorization: Bearer <token>` (`$authenticated`). Each
   * registry signs its own tokens, so one private registry's token is refused by another.
   */
  private?: boolean;
}

/** How a test process that did not start the registry reaches it (e.g. from a global setup). */
export interface RegistryAddress {
  /** Base URL with a trailing slash, like "http://127.0.0.1:4873/". */
  url: string;
  /** The token publishing needs (the registry's one user); never handed to a Workshop for a public registry. */
  publishToken: string;
  /** For a private registry: the token reading needs (the same user's), as a workspace's setting takes it. */
  token?: string;
}

export interface RegistryHandle extends RegistryAddress {
  publish(source: PublishSource): Promise<PublishedVersion>;
  /** The packument as an npm client gets it (with this registry's token when private). */
  packument(name: string): Promise<Packument>;
}

export interface TestRegistry extends RegistryHandle {
  stop(): Promise<void>;
}

export interface Packument {
  name: string;
  "dist-tags": Record<string, string>;
  versions: Record<
    string,
    { name: string; version: string; dist: { tarball: string; integrity: string; shasum: string } }
  >;
}

const PUBLISHER = { name: "fixtures", password: "fixtures-password" };

export async function startRegistry(options: RegistryOptions = {}): Promise<TestRegistry> {
  const dir = mkdtempSync(join(tmpdir(), "workshop-registry-"));
  const access = options.private ? "$authenticated" : "$all";
  // Typed loosely by Verdaccio (`ConfigYaml` wants every optional key); this is the whole of what it reads.
  const config = {
    self_path: join(dir, "config.yaml"),
    storage: join(dir, "storage"),
    // One user, registered below; max_users keeps anyone else from registering.
    auth: { htpasswd: { file: join(dir, "htpasswd"), max_users: 1 } },
    uplinks: {},
    packages: {
      "@*/*": { access, publish: "$authenticated", unpublish: "$authenticated" },
      "**": { access, publish: "$authenticated", unpublish: "$authenticated" },
    },
    web: { enable: false },
    log: { type: "stdout", format: "json", level: "fatal" },
    // Tarballs of the size-limit fixtures travel base64 in one publish body.
    max_body_size: "64mb",
  };
  let server: Server | undefined;
  try {
    server = (await runServer(config as unknown as Parameters<typeof runServer>[0])) as Server;
    const listening = server;
    await new Promise<void>((listened, failed) => {
      listening.once("error", failed);
      listening.listen(0, "127.0.0.1", () => listened());
    });
    const url = `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`;
    const publishToken = await registerPublisher(url);
    const address: RegistryAddress = { url, publishToken, ...(options.private ? { token: publishToken } : {}) };
    return {
      ...connectRegistry(address),
      stop: async () => {
        await closeServer(listening);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (server) await closeServer(server);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A registry started elsewhere (the suite's, from `inject("registry")`), to publish into and read. */
export function connectRegistry(address: RegistryAddress): RegistryHandle {
  return {
    ...address,
    publish: (source) => publishPackage(address, source),
    packument: (name) => fetchPackument(address, name),
  };
}

/** The registry's one user, through its real `adduser` endpoint: its answer is the Bearer token. */
async function registerPublisher(url: string): Promise<string> {
  const response = await fetch(new URL(`-/user/org.couchdb.user:${PUBLISHER.name}`, url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ _id: `org.couchdb.user:${PUBLISHER.name}`, type: "user", roles: [], ...PUBLISHER }),
  });
  const body = (await response.json()) as { token?: string; error?: string };
  if (!response.ok || !body.token)
    throw new Error(`The test registry refused its user: ${response.status} ${body.error ?? ""}`);
  return body.token;
}

export async function fetchPackument(registry: RegistryAddress, name: string): Promise<Packument> {
  const response = await fetch(new URL(packagePath(name), registry.url), {
    headers: registry.token ? { authorization: `Bearer ${registry.token}` } : {},
  });
  if (!response.ok) throw new Error(`The test registry answered ${response.status} for ${name}.`);
  return (await response.json()) as Packument;
}

async function closeServer(server: Server): Promise<void> {
  if (!server.listening) return;
  await new Promise<void>((closed) => {
    server.close(() => closed());
    server.closeAllConnections();
  });
}
