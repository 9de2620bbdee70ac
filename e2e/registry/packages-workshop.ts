/**
 * A Workshop of its own for the npm packages suites, whose default registry is a test registry of its
 * own with every fixture published: the suite can publish more, stop the registry, or restart the
 * Workshop on the same data folder, which the suite's shared Workshop and registry must never see.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer, type WorkshopServerOptions } from "@gadgets/workshop-host";
import { createRpcClient, type WorkshopClient } from "@gadgets/workshop-shared";
import { publishFixtures } from "./fixtures.ts";
import { startRegistry, type TestRegistry } from "./registry-server.ts";

export interface PackagesWorkshopOptions {
  /** How the data folder's name in the temp folder starts, like "workshop-packages-run-". */
  dataPrefix: string;
  /** Publishes more than the fixtures, before the Workshop starts. */
  publish?(registry: TestRegistry): Promise<void>;
  /** The Workshop's other options (`pool: false`), the same at every start. */
  server?: Omit<WorkshopServerOptions, "dataDir" | "registry">;
}

export interface PackagesWorkshop {
  /** The running Workshop; asking between `stopWorkshop` and `startWorkshop` throws. */
  readonly workshop: WorkshopServer;
  /** Still there once stopped, for its URL. */
  readonly registry: TestRegistry;
  /** A new workspace's token. */
  newToken(): Promise<string>;
  /** A client of a new workspace, disposed by `stop`. */
  newClient(): Promise<WorkshopClient>;
  newSession(): Promise<ReturnType<WorkshopClient["getSession"]>>;
  stopRegistry(): Promise<void>;
  stopWorkshop(): Promise<void>;
  /** Starts the Workshop again on the same data folder and registry URL (the registry may be gone). */
  startWorkshop(): Promise<WorkshopServer>;
  /** Disposes the clients, stops the Workshop and the registry, removes the data folder. */
  stop(): Promise<void>;
}

export async function startPackagesWorkshop(options: PackagesWorkshopOptions): Promise<PackagesWorkshop> {
  const registry = await startRegistry();
  let dataDir: string | undefined;
  let server: WorkshopServer | undefined;
  const clients: WorkshopClient[] = [];

  const startWorkshop = async (folder: string): Promise<WorkshopServer> => {
    // The registry runs on this machine: naming it as the default lets workspaces use registries here.
    server = await startWorkshopServer({ ...options.server, dataDir: folder, registry: registry.url });
    return server;
  };
  const stopWorkshop = async () => {
    const running = server;
    server = undefined;
    await running?.stop();
  };
  const stop = async () => {
    for (const client of clients.splice(0)) client[Symbol.dispose]();
    await stopWorkshop();
    await registry.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await publishFixtures(registry);
    await options.publish?.(registry);
    dataDir = mkdtempSync(join(tmpdir(), options.dataPrefix));
    await startWorkshop(dataDir);
  } catch (error) {
    await stop();
    throw error;
  }
  const folder = dataDir;

  const running = (): WorkshopServer => {
    if (!server) throw new Error("The packages Workshop is stopped.");
    return server;
  };
  const newToken = async () => {
    using boot = createRpcClient({ url: running().url });
    return (await boot.createWorkspace()).token;
  };
  const newClient = async () => {
    const token = await newToken();
    const client = createRpcClient({ url: running().url, token });
    clients.push(client);
    return client;
  };

  return {
    get workshop() {
      return running();
    },
    registry,
    newToken,
    newClient,
    newSession: async () => (await newClient()).getSession(),
    stopRegistry: () => registry.stop(),
    stopWorkshop,
    startWorkshop: () => startWorkshop(folder),
    stop,
  };
}
