/**
 * `gadget-env.d.ts`: the types of `env` for a gadget's grants, so the user's own editor completes what
 * the manifest grants (and flags what it does not), as the IDE's editor does — with the catalog granted,
 * `env.catalog.get("name")` typed from the workspace's published agents. `gadgets init` writes it; `run`
 * and `dev` write it again when the grants in gadget.json or the published agents change, or when it is missing.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { linkFreePath } from "./link-free-path.ts";
import { join } from "node:path";
import { gadgetEnvTypes } from "@gadgets/workshop-frontend/gadget-types";
import type { AgentSummary, GadgetGrants } from "@gadgets/workshop-shared";
import type { OpenSession } from "./connection.ts";
import { EXIT } from "./exit-codes.ts";

export const ENV_TYPES_FILE = "gadget-env.d.ts";

export function envTypesText(grants: GadgetGrants, agents: readonly AgentSummary[] = []): string {
  return `// The gadget contract's types for this gadget's grants (gadget.json). \`gadgets run\` and \`gadgets dev\`
// rewrite this file when the grants or the published agents change; it is for your editor and is not uploaded.
${gadgetEnvTypes(grants, agents)}`;
}

/** The published agents `env.catalog` is typed from: asked for only when the catalog is granted. */
export async function typedAgents(open: OpenSession, grants: GadgetGrants): Promise<AgentSummary[]> {
  if (!grants.catalog) return [];
  try {
    return await open.session.listAgents();
  } catch (error) {
    throw open.failure(error, EXIT.internal);
  }
}

/**
 * Writes the types file when it is missing or no longer matches the grants and agents; true when it did.
 * A folder that came without it (cloned, the file gitignored) gets it on its first run, as `init` writes it.
 */
export function refreshEnvTypes(root: string, grants: GadgetGrants, agents: readonly AgentSummary[] = []): boolean {
  // A link there (a cloned folder's, dangling or not) is not the file this writes: nothing is written through it.
  if (!linkFreePath(root, ENV_TYPES_FILE)) return false;
  const path = join(root, ENV_TYPES_FILE);
  const wanted = envTypesText(grants, agents);
  try {
    if (existsSync(path) && readFileSync(path, "utf8") === wanted) return false;
    writeFileSync(path, wanted);
    return true;
  } catch {
    // The file is only for the editor: a folder it cannot be written to (a read-only checkout in CI) still runs.
    return false;
  }
}
