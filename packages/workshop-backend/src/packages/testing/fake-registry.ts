/**
 * A registry for unit tests: real abbreviated packuments and real gzipped tarballs (packed with
 * modern-tar, hashed with WebCrypto) behind a fetch function, so the registry client, resolver, tarball
 * reader and package source are tested on the bytes a registry sends. The e2e suite uses a real registry.
 */

import { packTar, type TarEntry } from "modern-tar";

export interface FakeVersion {
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  /** Files of the tarball under `package/` (package.json is made from name, version and dependencies). */
  files?: Record<string, string | Uint8Array>;
  /** Raw tar entries instead (for hostile tarballs); `files` is then ignored. */
  entries?: TarEntry[];
  /** More fields of the version's manifest (`peerDependenciesMeta`…). */
  manifest?: Record<string, unknown>;
  /** An integrity other than the tarball's own (a registry that lies). */
  integrity?: string;
}

export interface FakePackage {
  versions: Record<string, FakeVersion>;
  distTags?: Record<string, string>;
}

export const FAKE_REGISTRY = "https://registry.test/";

export async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

export async function integrityOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-512", bytes as Uint8Array<ArrayBuffer>));
  return `sha512-${btoa(String.fromCharCode(...digest))}`;
}

/** A gzipped tarball with `files` under `package/`. */
export async function tarball(files: Record<string, string | Uint8Array>): Promise<Uint8Array> {
  const entries: TarEntry[] = Object.entries(files).map(([path, body]) => ({
    header: {
      name: `package/${path}`,
      size: typeof body === "string" ? new TextEncoder().encode(body).byteLength : body.byteLength,
    },
    body,
  }));
  return gzip(await packTar(entries));
}

interface Served {
  packument: unknown;
  tarballs: Map<string, Uint8Array>;
}

export class FakeRegistry {
  readonly requests: Request[] = [];
  /** Answers for a URL path that replace the registry's own (garbage, errors, hangs). */
  readonly overrides = new Map<string, () => Response | Promise<Response>>();
  #served: Map<string, Served> | undefined;

  constructor(
    readonly packages: Record<string, FakePackage>,
    readonly base = FAKE_REGISTRY,
  ) {}

  readonly fetch = async (request: Request): Promise<Response> => {
    this.requests.push(request);
    const url = new URL(request.url);
    const override = this.overrides.get(url.pathname);
    if (override) return override();
    const served = await this.#serve();
    const name = decodeURIComponent(url.pathname.slice(new URL(this.base).pathname.length));
    const found = served.get(name);
    if (found) return Response.json(found.packument);
    for (const entry of served.values()) {
      const bytes = entry.tarballs.get(url.href);
      if (bytes) return new Response(bytes as Uint8Array<ArrayBuffer>);
    }
    return Response.json({ error: "not found" }, { status: 404 });
  };

  /** The URLs asked for, in order. */
  get asked(): string[] {
    return this.requests.map((request) => request.url);
  }

  async #serve(): Promise<Map<string, Served>> {
    if (this.#served) return this.#served;
    const served = new Map<string, Served>();
    for (const [name, pkg] of Object.entries(this.packages)) {
      const versions: Record<string, unknown> = {};
      const tarballs = new Map<string, Uint8Array>();
      for (const [version, spec] of Object.entries(pkg.versions)) {
        const manifest = {
          name,
          version,
          ...(spec.dependencies ? { dependencies: spec.dependencies } : {}),
          ...(spec.optionalDependencies ? { optionalDependencies: spec.optionalDependencies } : {}),
          ...(spec.peerDependencies ? { peerDependencies: spec.peerDependencies } : {}),
          ...spec.manifest,
        };
        const bytes = spec.entries
          ? await gzip(await packTar(spec.entries))
          : await tarball({ "package.json": JSON.stringify(manifest), ...spec.files });
        const url = `${this.base}${name}/-/${name.split("/").pop()}-${version}.tgz`;
        tarballs.set(url, bytes);
        versions[version] = {
          ...manifest,
          dist: { tarball: url, integrity: spec.integrity ?? (await integrityOf(bytes)) },
        };
      }
      const latest = Object.keys(pkg.versions).at(-1) ?? "0.0.0";
      served.set(name, { packument: { name, "dist-tags": pkg.distTags ?? { latest }, versions }, tarballs });
    }
    this.#served = served;
    return served;
  }
}
