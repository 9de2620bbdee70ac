/**
 * `gadget-env.d.ts`: the types of `env` for a gadget's grants, so the user's own editor completes what
 * the manifest grants (and flags what it does not), as the IDE's editor does. `gadgets init` writes it;
 * `run` and `dev` rewrite it when the grants in gadget.json change.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gadgetEnvTypes } from "@gadgets/workshop-frontend/gadget-types";
import type { GadgetGrants } from "@gadgets/workshop-shared";

export const ENV_TYPES_FILE = "gadget-env.d.ts";

export function envTypesText(grants: GadgetGrants): string {
  return `// The gadget contract's types for this gadget's grants (gadget.json). \`gadgets run\` and \`gadgets dev\`
// rewrite this file when the grants change; it is for your editor and is not uploaded.
${gadgetEnvTypes(grants)}`;
}

export function writeEnvTypes(root: string, grants: GadgetGrants): void {
  writeFileSync(join(root, ENV_TYPES_FILE), envTypesText(grants));
}

/** Rewrites the types file when it exists and no longer matches the grants; true when it did. */
export function refreshEnvTypes(root: string, grants: GadgetGrants): boolean {
  const path = join(root, ENV_TYPES_FILE);
  if (!existsSync(path)) return false;
  const wanted = envTypesText(grants);
  if (readFileSync(path, "utf8") === wanted) return false;
  writeFileSync(path, wanted);
  return true;
}
