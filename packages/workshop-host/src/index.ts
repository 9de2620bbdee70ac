export { freePort } from "./free-port.ts";
export type { RunnerPoolOptions, RunnerPoolStats } from "./runner-pool.ts";
export { REPO_ROOT, startWorkshopServer, type WorkshopServer, type WorkshopServerOptions } from "./workshop-server.ts";
