/**
 * `env.` in a gadget that is granted nothing completes nothing, and a person is left guessing. The
 * editor offers this one entry there instead: what `env` holds, and how to grant it.
 */

import type { GadgetGrants } from "@gadgets/workshop-shared";

export interface EnvHint {
  label: string;
  documentation: string;
}

/** Whether the manifest grants any capability at all. */
export function grantsSomething(grants: GadgetGrants | undefined): boolean {
  if (!grants) return false;
  return (
    grants.kv === true ||
    grants.catalog === true ||
    (grants.fetch?.hosts.length ?? 0) > 0 ||
    (grants.secrets?.length ?? 0) > 0
  );
}

/** The hint for the text before the cursor, when it ends in `env.` (or `env.partial`) and nothing is granted. */
export function envCompletionHint(textBefore: string, grants: GadgetGrants | undefined): EnvHint | undefined {
  if (grantsSomething(grants) || !/(?<![\w$.])env\.\w*$/.test(textBefore)) return undefined;
  return {
    label: "(nothing granted: env is empty)",
    documentation: [
      "This gadget's `env` holds only what gadget.json grants, and it grants nothing yet.",
      "Grant a capability under **Grants**, or in gadget.json:",
      '`"grants": { "kv": true }` → `env.kv`,',
      '`"fetch": { "hosts": ["api.example.com"] }` → `env.fetch`,',
      '`"catalog": true` → `env.catalog`,',
      '`"secrets": ["NAME"]` → `env.secrets`.',
    ].join("\n\n"),
  };
}
