/**
 * `gadget-env.d.ts`: the types of `env` for a gadget's grants, so the user's own editor completes what
 * the manifest grants (and flags what it does not), as the IDE's editor does — with the catalog granted,
 * `env.catalog.get("name")` typed from the workspace's published agents. `gadgets init` writes it; `run`
 * and `dev` rewrite it when the grants in gadget.json or the published agents change.
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

/** Rewrites the types file when it exists and no longer matches the grants and agents; true when it did. */
export function refreshEnvTypes(root: string, grants: GadgetGrants, agents: readonly AgentSummary[] = []): boolean {
  const path = join(root, ENV_TYPES_FILE);
  // A link there (a cloned folder's) is not the file this writes: nothing is written through it.
  if (!existsSync(path) || !linkFreePath(root, ENV_TYPES_FILE)) return false;
  const wanted = envTypesText(grants, agents);
  if (readFileSync(path, "utf8") === wanted) return false;
  writeFileSync(path, wanted);
  return true;
}
