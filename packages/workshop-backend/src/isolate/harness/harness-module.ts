/**
 * The isolate's main module (`HARNESS_MODULE`): imports the console module first, then the gadget's
 * entry, and runs `run()` with the granted `env`. The result, or the error, comes back as data:
 * nothing is thrown across the isolate boundary.
 */

import { WorkerEntrypoint } from "cloudflare:workers";
import type { GadgetGrants, JsonValue } from "@gadgets/workshop-shared/api";
import type { CapabilityHandler } from "../../executors/executor.ts";
// Ships as its own module (HARNESS_CONSOLE_MODULE); imported before the gadget's entry, so it binds first.
import { claim } from "./console-module.ts";
import * as entry from "gadget:entry";
import type { HarnessEntrypoint, HarnessOutcome, HarnessReply, RunSink } from "./contract.ts";
import { buildEnv } from "./gadget-env.ts";
import { toResult } from "./run-result.ts";
import { newRunState } from "./run-state.ts";

interface Gadget {
  run(payload: JsonValue, env: unknown): unknown;
}

const isGadget = (value: unknown): value is Gadget =>
  Boolean(value) && typeof (value as { run?: unknown }).run === "function";

// Claimed while this module evaluates, right after the gadget's modules: before any of its async code.
const channel = claim();
const describe = channel ? channel.describe : () => ({ name: "Error", message: "", stack: "" });

const invalidGadget = (message: string): HarnessOutcome => ({
  status: "error",
  kind: "invalid",
  error: { name: "InvalidGadget", message, stack: "" },
});

export class GadgetHarness extends WorkerEntrypoint implements HarnessEntrypoint {
  async run(
    payload: JsonValue,
    sink: RunSink | null,
    runId: string,
    grants: GadgetGrants,
    capabilities: CapabilityHandler | null,
    secrets: Readonly<Record<string, string>> | null = null,
  ): Promise<HarnessReply> {
    if (!channel) {
      return {
        ...invalidGadget(
          "The gadget imported the Workshop's own console module, which it may not use. Import only the gadget's own files.",
        ),
        eventLines: 0,
        droppedEvents: 0,
      };
    }
    const env = buildEnv(grants, capabilities, secrets);
    const run = newRunState(runId, sink);
    channel.begin(run);
    try {
      const reply = await channel.within(run, async (): Promise<HarnessOutcome> => {
        const gadget = entry.default;
        if (!isGadget(gadget)) {
          return invalidGadget(
            "The entry module has no default export with a run() method. Write: export default { async run(payload, env) { … } }",
          );
        }
        try {
          return toResult(await gadget.run(payload, env), describe);
        } catch (thrown) {
          return { status: "error", kind: "user", error: describe(thrown) };
        }
      });
      return { ...reply, eventLines: run.lines, droppedEvents: run.dropped };
    } finally {
      channel.end(run);
      // Log calls still in flight would be lost once run() returns and the sink is released.
      await Promise.all(run.pending);
      channel.finish(run);
    }
  }
}
