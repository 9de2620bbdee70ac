/** Starts one real Workshop (wrangler dev → workerd, data in a temp folder) for the e2e suite. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import type { TestProject } from "vitest/node";

declare module "vitest" {
  export interface ProvidedContext {
    workshopUrl: string;
  }
}

let server: WorkshopServer | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  dataDir = mkdtempSync(join(tmpdir(), "workshop-e2e-"));
  server = await startWorkshopServer({ dataDir });
  project.provide("workshopUrl", server.url);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
}
