/**
 * Starts one run for a session: takes a run slot, hands the run to the overseer, stores the record
 * after the outcome is known (never before the isolate starts), and frees the slot.
 */

import type { GadgetFile, RunEventListener, RunOutcome, RunSummary } from "@gadgets/workshop-shared/api";
import { randomId } from "../storage/ids.ts";
import type { Connection } from "./connection.ts";
import type { RunRecordWriter } from "./run-record-writer.ts";

export interface LaunchRequest {
  source: RunSummary["source"];
  files: readonly GadgetFile[];
  payload: unknown;
  listener: RunEventListener | undefined;
  timeoutMs: unknown;
  receivedAt: number;
  /** Immutable identity of the files (`draft:<id>@<version>`), so the build is cached. */
  codeKey: string;
}

export async function launchRun(
  connection: Connection,
  workspaceId: string,
  records: RunRecordWriter,
  request: LaunchRequest,
): Promise<RunOutcome> {
  const runId = randomId();
  const controller = connection.acquireRunSlot(runId);
  if (!controller) {
    const now = Date.now();
    return { status: "error", runId, kind: "busy", message: connection.busyMessage(), timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: now - request.receivedAt } };
  }
  try {
    const { outcome, record } = await connection.overseer.run({
      runId,
      executor: connection.executor,
      workspaceId,
      source: request.source,
      files: request.files,
      payload: request.payload,
      timeoutMs: request.timeoutMs,
      listener: request.listener,
      signal: controller.signal,
      receivedAt: request.receivedAt,
      codeKey: request.codeKey,
    });
    // Stored after the caller has its outcome; the session's reads flush the writer first.
    records.add(record);
    return outcome;
  } finally {
    connection.releaseRunSlot(runId);
  }
}
