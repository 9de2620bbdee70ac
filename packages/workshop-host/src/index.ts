export { freePort } from "./free-port.ts";
export { REPO_ROOT, startWorkshopServer, type WorkshopServer, type WorkshopServerOptions } from "./workshop-server.ts";
