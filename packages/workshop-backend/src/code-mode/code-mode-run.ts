/** Starts a Code Mode run: the submitted code as its gadget, on the one launch path every run takes. */

import type { RunEventListener, RunOutcome } from "@gadgets/workshop-shared/api";
import { contentHash } from "../build/gadget-build.ts";
import { launchRun, type RunContext } from "../rpc/run-launcher.ts";
import { codeModeFiles } from "./code-mode-gadget.ts";

/** The kv scope and call-chain root of Code Mode runs: not a draft id, and the gadget has no kv grant. */
const CODE_MODE_SCOPE = "code-mode";

export interface CodeModeRequest {
  /** Already checked (`CodeModeCodeSchema`). */
  code: string;
  listener?: RunEventListener;
  /** The caller's RunOptions as sent, checked like any run's. */
  options?: unknown;
  receivedAt: number;
  /** Which agents the code may call (an API key limited to some); left out: all of the workspace's. */
  allowsAgent?(agent: { agentId: string; name: string }): boolean;
}

export async function runCodeMode(context: RunContext, request: CodeModeRequest): Promise<RunOutcome> {
  const files = codeModeFiles(request.code);
  return launchRun(context, {
    source: { kind: "code" },
    files,
    payload: null,
    options: request.options,
    listener: request.listener,
    timeoutMs: context.timeoutMs,
    receivedAt: request.receivedAt,
    // The same code builds once per Worker isolate, like a draft version.
    codeKey: `code:${await contentHash(files)}`,
    scope: CODE_MODE_SCOPE,
    ...(request.allowsAgent ? { allowsAgent: request.allowsAgent } : {}),
  });
}
