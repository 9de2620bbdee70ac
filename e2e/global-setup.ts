/** Starts one real Workshop (wrangler dev → workerd, data in a temp folder) for the e2e suite. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import type { TestProject } from "vitest/node";
import { publishFixtures } from "./registry/fixtures.ts";
import { type RegistryAddress, startRegistry, type TestRegistry } from "./registry/registry-server.ts";
import { storageCensus } from "./storage-census.ts";

declare module "vitest" {
  export interface ProvidedContext {
    workshopUrl: string;
    /** The gadget origin of that Workshop (agents' HTTP endpoints). */
    endpointsUrl: string;
    /** The suite's npm registry (Verdaccio on loopback) with every fixture package published. */
    registry: RegistryAddress;
  }
}

let server: WorkshopServer | undefined;
let registry: TestRegistry | undefined;
let dataDir: string | undefined;

export async function setup(project: TestProject): Promise<void> {
  registry = await startRegistry();
  await publishFixtures(registry);
  project.provide("registry", { url: registry.url, publishToken: registry.publishToken });
  dataDir = mkdtempSync(join(tmpdir(), "workshop-e2e-"));
  server = await startWorkshopServer({ dataDir, registry: registry.url });
  project.provide("workshopUrl", server.url);
  project.provide("endpointsUrl", server.endpointsUrl);
}

export async function teardown(): Promise<void> {
  await server?.stop();
  await registry?.stop();
  if (!dataDir) return;
  try {
    // After the whole suite, its hundreds of misses included: one storage file per object created.
    const census = storageCensus(join(dataDir, "workspaces"));
    const shares = census.created.snapshot + census.created.record;
    if (census.workspaceFiles !== census.created.workspace || census.shareFiles !== shares)
      throw new Error(
        `The data folder holds ${census.workspaceFiles} workspace and ${census.shareFiles} share files, but ${census.created.workspace} workspaces and ${shares} shares were created: some lookup left a storage object behind.`,
      );
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
