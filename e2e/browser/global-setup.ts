import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer } from "@gadgets/workshop-host";
import { findChromium } from "@gadgets/workshop-host/chromium";
import { publishFixtures } from "../registry/fixtures.ts";
import { startRegistry } from "../registry/registry-server.ts";

/**
 * One real Workshop for the browser suite, the npm registry it resolves against (fixtures published),
 * and a Chromium to drive it; the URLs, the browser and its flags reach the test workers through the
 * environment (they load the config after this ran).
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  const browser = await findChromium();
  process.env.CHROMIUM_PATH = browser.executablePath;
  process.env.WORKSHOP_CHROMIUM_ARGS = JSON.stringify(browser.args);
  console.log(`Browser tests use Chromium from ${browser.source}: ${browser.executablePath}`);
  const registry = await startRegistry();
  await publishFixtures(registry);
  process.env.WORKSHOP_E2E_REGISTRY = JSON.stringify({ url: registry.url, publishToken: registry.publishToken });
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-browser-"));
  // Granted gadget fetches may reach this machine: the specs serve what a gadget fetches on 127.0.0.1.
  const server = await startWorkshopServer({ dataDir, registry: registry.url, allowLocalFetch: true });
  process.env.WORKSHOP_E2E_URL = server.url;
  return async () => {
    await server.stop();
    await registry.stop();
    rmSync(dataDir, { recursive: true, force: true });
  };
}
