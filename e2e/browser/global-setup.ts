import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer } from "@gadgets/workshop-host";

/** One real Workshop for the browser suite; its URL reaches the tests through the environment. */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-browser-"));
  const server = await startWorkshopServer({ dataDir });
  process.env.WORKSHOP_E2E_URL = server.url;
  return async () => {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
