/**
 * How a run record is laid out in a workspace's database: a summary row, and its parts (files, payload,
 * events, outcome, trace) in one `all` row when they fit, else one row per part, since a Durable Object
 * row holds at most 2 MB and a run may carry 1 MiB of files, 1 MiB of payload and 1 MiB of result. A
 * part that alone passes a row's size (1 MiB of characters JSON escapes, `"` or control characters,
 * takes up to 6 MiB) is split over rows `<part>~0`, `<part>~1`, …. Most records are small: one row
 * instead of five is most of what storing a record costs.
 */

import type { RunRecord, RunVia } from "@gadgets/workshop-shared/api";
import { byteLength } from "@gadgets/workshop-shared/validate";

/** A record's events, as JSON, stay well under the 2 MB a Durable Object row may hold. */
const MAX_EVENTS_PART_BYTES = 1_500_000;

/**
 * The first events that fit in `maxBytes` of JSON, always keeping the closing dropped/end events. Sized
 * in UTF-8 bytes, as the row limit is: a character of a log line may take three.
 */
function fitEvents(events: RunRecord["events"], maxBytes: number): RunRecord["events"] {
  const closing = events.filter((event) => event.type === "end" || event.type === "dropped");
  let budget = maxBytes - byteLength(JSON.stringify(closing));
  const kept: RunRecord["events"] = [];
  for (const event of events) {
    if (event.type === "end" || event.type === "dropped") continue;
    const size = byteLength(JSON.stringify(event)) + 1;
    if (size > budget) break;
    budget -= size;
    kept.push(event);
  }
  return [...kept, ...closing];
}

/** A record's parts as stored, by name. */
export interface RecordParts {
  payload: RunRecord["payload"];
  files: RunRecord["files"];
  events: { events: RunRecord["events"]; droppedEvents: number };
  outcome: RunRecord["outcome"];
  trace?: RunRecord["trace"];
}

/** The row that holds every part of a record that fits in one. */
const ALL_PARTS = "all";
/** Parts up to this size share one row, well under the 2 MB a row may hold. */
const MAX_ONE_ROW_BYTES = 1_500_000;

/** Separates a part's name from the number of one of its pieces, in a part split over rows. */
const PIECE = "~";

/** A record's parts from its rows, in either layout (one `all` row, or a row per part or piece of one). */
export function partsFromRows(rows: readonly { part: string; value: string }[]): Partial<RecordParts> {
  const parts: Partial<RecordParts> = {};
  const pieces = new Map<string, string[]>();
  for (const { part, value } of rows) {
    const at = part.indexOf(PIECE);
    if (at !== -1) {
      const name = part.slice(0, at);
      const texts = pieces.get(name) ?? [];
      texts[Number(part.slice(at + 1))] = value;
      pieces.set(name, texts);
    } else if (part === ALL_PARTS) Object.assign(parts, JSON.parse(value) as RecordParts);
    else Object.assign(parts, { [part]: JSON.parse(value) as unknown });
  }
  for (const [name, texts] of pieces) Object.assign(parts, { [name]: JSON.parse(texts.join("")) as unknown });
  return parts;
}

/**
 * A part's text as rows that each fit: whole, or in pieces of at most `maxBytes` of UTF-8. A piece
 * never ends inside a surrogate pair, which a row's text could not hold.
 */
function partRows(part: string, text: string, maxBytes: number): (readonly [string, string])[] {
  if (byteLength(text) <= maxBytes) return [[part, text]];
  const rows: (readonly [string, string])[] = [];
  for (let start = 0; start < text.length; ) {
    let end = Math.min(start + maxBytes, text.length);
    for (let bytes = byteLength(text.slice(start, end)); bytes > maxBytes; bytes = byteLength(text.slice(start, end)))
      end = start + Math.floor(((end - start) * maxBytes) / bytes);
    const last = text.charCodeAt(end - 1);
    if (end < text.length && last >= 0xd800 && last <= 0xdbff) end--;
    rows.push([`${part}${PIECE}${rows.length}`, text.slice(start, end)]);
    start = end;
  }
  return rows;
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
  const kept = fitEvents(events, MAX_EVENTS_PART_BYTES);
  const summaryText = JSON.stringify(runSummary);
  const values: RecordParts = {
    payload,
    files,
    events: { events: kept, droppedEvents: droppedEvents + (events.length - kept.length) },
    outcome,
    ...(trace ? { trace } : {}),
  };
  const whole = JSON.stringify(values);
  const wholeBytes = byteLength(whole);
  const parts =
    wholeBytes <= MAX_ONE_ROW_BYTES
      ? [[ALL_PARTS, whole] as const]
      : Object.entries(values).flatMap(([part, value]) => partRows(part, JSON.stringify(value), MAX_ONE_ROW_BYTES));
  const partBytes = parts.length === 1 ? wholeBytes : parts.reduce((sum, [, text]) => sum + byteLength(text), 0);
  const bytes = partBytes + byteLength(summaryText);
  return {
    summaryText,
    agentId: runSummary.source.kind === "agent" ? runSummary.source.agentId : null,
    via: runSummary.via ?? "rpc",
    parts,
    bytes,
  };
}

/** A statement binds at most 100 values: one writes all of a record's rows, but for a part split in many pieces. */
const PARTS_PER_STATEMENT = 30;
/** `INSERT … VALUES (?, ?, ?), …` for n rows. */
const insertParts = (n: number) =>
  `INSERT OR REPLACE INTO run_parts (run_id, part, value) VALUES ${Array.from({ length: n }, () => "(?, ?, ?)").join(", ")}`;

/** Writes the rows of one record; `replacing`: an earlier record of the same run is there, and goes. */
export function insertRunRows(
  sql: SqlStorage,
  runId: string,
  startedAt: number,
  rows: RunRows,
  replacing = true,
): void {
  sql.exec(
    "INSERT OR REPLACE INTO run_summaries (id, summary, started_at, agent_id, via) VALUES (?, ?, ?, ?, ?)",
    runId,
    rows.summaryText,
    startedAt,
    rows.agentId,
    rows.via,
  );
  insertRunParts(sql, runId, rows, replacing);
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

function insertRunParts(sql: SqlStorage, runId: string, rows: RunRows, replacing = true): void {
  // A record stored again may change layout: none of the earlier record's parts may outlive it.
  if (replacing) sql.exec("DELETE FROM run_parts WHERE run_id = ?", runId);
  for (let at = 0; at < rows.parts.length; at += PARTS_PER_STATEMENT) {
    const some = rows.parts.slice(at, at + PARTS_PER_STATEMENT);
    sql.exec(insertParts(some.length), ...some.flatMap(([part, text]) => [runId, part, text]));
  }
}
