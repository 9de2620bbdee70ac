/**
 * Editor types for a gadget, generated from its grants: `run(payload, env)` sees exactly the `env` the
 * overseer will grant, so using a capability that was not granted is a type error before it is a
 * runtime error. Today a gadget is granted nothing beyond the ambient globals (console, timers,
 * crypto, structuredClone), so `GadgetEnv` is empty.
 */

import type { GadgetGrants } from "@gadgets/workshop-shared";

export function gadgetEnvTypes(_grants: GadgetGrants): string {
  return `/** What a gadget's run(payload, env) receives as env: only what its manifest was granted. */
interface GadgetEnv {}

/** The shape of a gadget's default export. */
interface Gadget<Payload = unknown, Result = unknown> {
  run(payload: Payload, env: GadgetEnv): Result | Promise<Result>;
}
`;
}
