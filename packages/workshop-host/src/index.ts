export { freePort } from "./free-port.ts";
export { RunnerPool, type RunnerPoolOptions, type RunnerPoolStats } from "@gadgets/workshop-pool/supervisor";
export { REPO_ROOT, startWorkshopServer, type WorkshopServer, type WorkshopServerOptions } from "./workshop-server.ts";
export { COMPATIBILITY_DATE, WORKER_COMPATIBILITY_FLAGS } from "@gadgets/workshop-backend/compatibility";
export { text as capnpText } from "./capnp.ts";
export { bundleWorker } from "./worker-bundle.ts";
export { startWorkerd } from "./workerd-process.ts";
