import type { ShareStore } from "./storage/share-store.ts";
import type { WorkspaceStore } from "./storage/workspace-store.ts";

/** The Worker's bindings, as declared in wrangler.toml. */
export interface Env {
  LOADER: WorkerLoader;
  WORKSPACES: DurableObjectNamespace<WorkspaceStore>;
  SHARES: DurableObjectNamespace<ShareStore>;
  ASSETS?: Fetcher;
  /** Comma-separated extra origins allowed to open `/api` sessions from a browser. */
  ALLOWED_ORIGINS?: string;
  /** Set by the local host: the runner pool's supervisor, which enforces limits workerd does not. */
  RUNNER_POOL_URL?: string;
  RUNNER_POOL_SECRET?: string;
  /** Locally: the network gadget fetches leave through (public addresses only, unless configured). */
  GADGET_FETCH?: Fetcher;
}
