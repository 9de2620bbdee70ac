/**
 * How a run record is laid out in a workspace's database: a summary row, and one row per part (files,
 * payload, events, outcome, trace), since a Durable Object row holds at most 2 MB and a run may carry
 * 1 MiB of files, 1 MiB of payload and 1 MiB of result.
 */

import type { RunRecord, RunVia } from "@gadgets/workshop-shared/api";
import { byteLength } from "@gadgets/workshop-shared/validate";

/** A record's events, as JSON, stay well under the 2 MB a Durable Object row may hold. */
const MAX_EVENTS_PART_CHARS = 1_500_000;

/** The first events that fit in `maxChars` of JSON, always keeping the closing dropped/end events. */
function fitEvents(events: RunRecord["events"], maxChars: number): RunRecord["events"] {
  const closing = events.filter((event) => event.type === "end" || event.type === "dropped");
  let budget = maxChars - JSON.stringify(closing).length;
  const kept: RunRecord["events"] = [];
  for (const event of events) {
    if (event.type === "end" || event.type === "dropped") continue;
    const size = JSON.stringify(event).length + 1;
    if (size > budget) break;
    budget -= size;
    kept.push(event);
  }
  return [...kept, ...closing];
}

export interface RunRows {
  summaryText: string;
  /** The indexed columns `listRuns` filters on: the agent that ran (none for drafts and Code Mode), who started it. */
  agentId: string | null;
  via: RunVia;
  parts: (readonly [part: string, text: string])[];
  /** What the rows take, as counted against the workspace's quota. */
  bytes: number;
}

export function runRows(record: RunRecord): RunRows {
  const { payload, files, events, droppedEvents, outcome, trace, ...runSummary } = record;
  const kept = fitEvents(events, MAX_EVENTS_PART_CHARS);
  const summaryText = JSON.stringify(runSummary);
  const parts = Object.entries({
    payload,
    files,
    events: { events: kept, droppedEvents: droppedEvents + (events.length - kept.length) },
    outcome,
    ...(trace ? { trace } : {}),
  }).map(([part, value]) => [part, JSON.stringify(value)] as const);
  const bytes = parts.reduce((sum, [, text]) => sum + byteLength(text), byteLength(summaryText));
  return {
    summaryText,
    agentId: runSummary.source.kind === "agent" ? runSummary.source.agentId : null,
    via: runSummary.via ?? "rpc",
    parts,
    bytes,
  };
}

/** `INSERT … VALUES (?, ?, ?), …` for n parts: a record's parts are written by one statement. */
const insertParts = (n: number) =>
  `INSERT OR REPLACE INTO run_parts (run_id, part, value) VALUES ${Array.from({ length: n }, () => "(?, ?, ?)").join(", ")}`;

/** Writes the rows of one record (replacing an earlier record of the same run). */
export function insertRunRows(sql: SqlStorage, runId: string, startedAt: number, rows: RunRows): void {
  sql.exec(
    "INSERT OR REPLACE INTO run_summaries (id, summary, started_at, agent_id, via) VALUES (?, ?, ?, ?, ?)",
    runId,
    rows.summaryText,
    startedAt,
    rows.agentId,
    rows.via,
  );
  insertRunParts(sql, runId, rows);
}

/**
 * Writes the rows of one record as schema version 2 laid them out (no indexed columns yet), for that
 * step's move of the oldest records; a later step fills the columns in from the summaries.
 */
export function insertRunRowsV2(sql: SqlStorage, runId: string, startedAt: number, rows: RunRows): void {
  sql.exec(
    "INSERT OR REPLACE INTO run_summaries (id, summary, started_at) VALUES (?, ?, ?)",
    runId,
    rows.summaryText,
    startedAt,
  );
  insertRunParts(sql, runId, rows);
}

function insertRunParts(sql: SqlStorage, runId: string, rows: RunRows): void {
  if (rows.parts.length === 0) return;
  sql.exec(insertParts(rows.parts.length), ...rows.parts.flatMap(([part, text]) => [runId, part, text]));
}
