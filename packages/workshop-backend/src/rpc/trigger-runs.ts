/**
 * Runs a published agent for a trigger — a request to its HTTP endpoint, a schedule's firing — with no
 * client session: as the workspace's owner would (its grants and secrets), on the one launch path,
 * recorded `via` the trigger. Each call opens its own connection (run slots, executor) and closes it.
 */

import type { JsonValue, RunEventListener, RunOutcome, RunVia } from "@gadgets/workshop-shared/api";
import type { Env } from "../env.ts";
import type { Overseer, RunRequest } from "../overseer.ts";
import type { ResolvedAgent, WorkspaceStore } from "../storage/workspace-store.ts";
import { Connection } from "./connection.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import { launchRun, type RunContext } from "./run-launcher.ts";
import { RunRecordWriter } from "./run-record-writer.ts";
import type { SharedRunSlots } from "./shared-run-slots.ts";

export interface TriggeredRun {
  env: Env;
  overseer: Overseer;
  workspaceId: string;
  store: DurableObjectStub<WorkspaceStore>;
  /** The agent's version to run, as the trigger resolved it (its latest). */
  agent: ResolvedAgent;
  payload: JsonValue;
  via: Extract<RunVia, "http" | "schedule">;
  trigger: NonNullable<RunRequest["trigger"]>;
  /** The payload as the record keeps it, when that differs (an HTTP request's credentials redacted). */
  recordedPayload?: JsonValue;
  /** The caller's trace the run joins (an HTTP request's traceparent). */
  traceJoin?: RunRequest["traceJoin"];
  /** Who asked (client-key.ts), for per-client limits; a schedule is its own client. */
  client: string;
  waitUntil(work: Promise<unknown>): void;
  listener?: RunEventListener;
  signal?: AbortSignal;
  /** Slots shared with the other runs of the same platform context (a store's schedule firings). */
  slots?: SharedRunSlots;
}

export async function runTriggered(run: TriggeredRun): Promise<RunOutcome> {
  const receivedAt = Date.now();
  const { settings } = await run.store.openSession();
  const connection = new Connection(run.env, run.overseer, run.client, run.waitUntil, run.slots);
  const records = new RunRecordWriter(run.store, () => checkDiskForWrite(run.env));
  const context: RunContext = {
    connection,
    workspaceId: run.workspaceId,
    store: run.store,
    records,
    timeoutMs: settings.runTimeoutMs,
    fetchHosts: settings.fetchHosts,
    via: run.via,
  };
  const cancel = () => connection.close();
  run.signal?.addEventListener("abort", cancel, { once: true });
  try {
    return await launchRun(context, {
      source: { kind: "agent", agentId: run.agent.agentId, version: run.agent.version },
      files: run.agent.files,
      payload: run.payload,
      listener: run.listener,
      timeoutMs: settings.runTimeoutMs,
      receivedAt,
      codeKey: `agent:${run.agent.agentId}@${run.agent.version}`,
      scope: run.agent.draftId,
      trigger: run.trigger,
      ...(run.recordedPayload !== undefined ? { recordedPayload: run.recordedPayload } : {}),
      ...(run.traceJoin ? { traceJoin: run.traceJoin } : {}),
    });
  } finally {
    run.signal?.removeEventListener("abort", cancel);
    // The record is written before the connection's executor goes.
    run.waitUntil(records.flush().finally(() => connection.close()));
  }
}
