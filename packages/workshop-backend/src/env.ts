import type { PackageStore } from "./packages/package-store.ts";
import type { Directory } from "./storage/directory.ts";
import type { ShareStore } from "./storage/share-store.ts";
import type { WorkspaceStore } from "./storage/workspace-store.ts";

/** The Worker's bindings, as declared in wrangler.toml. */
export interface Env {
  LOADER: WorkerLoader;
  WORKSPACES: DurableObjectNamespace<WorkspaceStore>;
  SHARES: DurableObjectNamespace<ShareStore>;
  /** The ids that exist (one object): unknown ids are refused before any store is touched. */
  DIRECTORY: DurableObjectNamespace<Directory>;
  /** Verified npm packages by integrity (packages/stored-packages.ts says which object holds which). */
  PACKAGES: DurableObjectNamespace<PackageStore>;
  /** The registry workspaces resolve packages against unless they set their own (default https://registry.npmjs.org/). */
  NPM_REGISTRY?: string;
  /** Locally: where registry requests leave (public addresses; loopback too with --allow-local-fetch). */
  REGISTRY_FETCH?: Fetcher;
  /**
   * "1", set by the local host started with --allow-local-fetch or with --registry on this machine: a
   * registry on this machine (plain http) may be used.
   */
  ALLOW_LOCAL_REGISTRY?: string;
  /** "1" for data written before the directory existed: a directory miss then asks the store itself. */
  LEGACY_LOOKUPS?: string;
  /**
   * Set by the local host: comma-separated host names (besides loopback ones) this Workshop answers
   * to. When set, a request for any other Host is refused, so a DNS-rebound name reaches nothing.
   */
  ALLOWED_HOSTS?: string;
  /**
   * Set by the local host (`--trust-proxy`): the Workshop sits behind a reverse proxy on this machine,
   * so a client is the address the proxy adds last to X-Forwarded-For, not the proxy's connection.
   */
  TRUST_PROXY?: string;
  /** Locally: answers how much disk is free, so writes are refused before the disk fills. */
  DISK_STATUS?: Fetcher;
  ASSETS?: Fetcher;
  /** Comma-separated extra origins allowed to open `/api` sessions from a browser. */
  ALLOWED_ORIGINS?: string;
  /** Set by the local host: the runner pool's supervisor, which enforces limits workerd does not. */
  RUNNER_POOL_URL?: string;
  RUNNER_POOL_SECRET?: string;
  /** Locally: the network gadget fetches leave through (public addresses only, unless configured). */
  GADGET_FETCH?: Fetcher;
  /**
   * The origin agents' HTTP endpoints are served on (`https://gadgets.example.com`; locally the host's
   * second socket): never the IDE's. Unset: no endpoint answers anywhere (http/gadget-origin.ts).
   */
  GADGET_ORIGIN?: string;
  /** "1", set by the local host: which origin a request came to is the `Workshop-Socket` header workerd sets per socket. */
  LOCAL_SOCKETS?: string;
  /** Tests only: the shortest `every` schedule interval in ms (default MIN_SCHEDULE_INTERVAL_MS, 60000). */
  MIN_SCHEDULE_INTERVAL_MS?: string;
  /**
   * Base64 of the 32-byte AES key workspace secrets are sealed with (rpc/secrets.ts): a Worker secret on
   * Cloudflare (`wrangler secret put SECRETS_KEY`), a key file apart from the data folder locally. Without
   * it, setting secrets is refused.
   */
  SECRETS_KEY?: string;
}
