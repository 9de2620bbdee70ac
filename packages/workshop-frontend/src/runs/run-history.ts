/**
 * The workspace's recent runs as the Runs view lists them: a row of words per run (what ran, who
 * started it, how it ended, when, how long), and what a chosen record shows beside the list.
 */

import type {
  GadgetFile,
  JsonValue,
  RunErrorKind,
  RunRecord,
  RunSource,
  RunSummary,
  RunVia,
} from "@gadgets/workshop-shared";
import { ago } from "../problems/problems.ts";

/** How many runs the view asks for: a screenful to scan, not an archive. */
export const RUN_HISTORY_LIMIT = 50;

/** The file of a Code Mode run that holds the code it was sent. */
export const CODE_MODE_FILE = "code.ts";

export interface RunRow {
  runId: string;
  name: string;
  /** "draft v3", "agent v2", "Code Mode". */
  source: string;
  /** "IDE / API" or "from MCP". */
  via: string;
  /** In plain words: "ok", "threw", "timed out"… */
  outcome: string;
  /** The raw status or error kind, for a tooltip. */
  outcomeKind: string;
  failed: boolean;
  /** "3 min ago", or the local date and time past two days. */
  when: string;
  /** The local date and time, for a tooltip. */
  at: string;
  /** "12 ms", "1.5 s". */
  duration: string;
}

const KIND_WORDS: Record<RunErrorKind, string> = {
  user: "threw",
  invalid: "invalid input or result",
  timeout: "timed out",
  cpu: "used too much CPU",
  memory: "ran out of memory",
  cancelled: "cancelled",
  busy: "server busy",
};

/** What ran, in words. */
export function sourceText(source: RunSource): string {
  switch (source.kind) {
    case "draft":
      return `draft v${source.version}`;
    case "agent":
      return `agent v${source.version}`;
    case "code":
      return "Code Mode";
  }
}

/** Who started the run; records made before `via` existed came over the RPC API. */
export function viaText(via: RunVia | undefined): string {
  return via === "mcp" ? "from MCP" : "IDE / API";
}

/** How a run ended, in plain words; a kind this IDE does not know yet is shown as it came. */
export function outcomeWords(run: Pick<RunSummary, "status" | "kind">): string {
  if (run.status === "ok") return "ok";
  return (run.kind && KIND_WORDS[run.kind]) ?? run.kind ?? "error";
}

/** A duration as a reader takes it in: milliseconds under a second, else seconds with one decimal. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(1)} s`;
}

function whenText(at: number, now: number): string {
  return now - at < 48 * 3600_000 ? ago(at, now) : new Date(at).toLocaleString();
}

/** Rows in the order listed (the Workshop answers newest first). */
export function runRows(runs: readonly RunSummary[], now: number): RunRow[] {
  return runs.map((run) => ({
    runId: run.runId,
    name: run.name,
    source: sourceText(run.source),
    via: viaText(run.via),
    outcome: outcomeWords(run),
    outcomeKind: run.status === "ok" ? "ok" : (run.kind ?? "error"),
    failed: run.status !== "ok",
    when: whenText(run.startedAt, now),
    at: new Date(run.startedAt).toLocaleString(),
    duration: durationText(run.totalMs),
  }));
}

export interface RunDetails {
  /** "Run of weather". */
  title: string;
  payload: string;
  /** The result as JSON, or the failure's kind in words and its message. */
  outcome: string;
  /** The error's stack (mapped to the gadget's files), when the run threw. */
  stack?: string;
  /** For a Code Mode run: the code it was sent, exactly as it ran. */
  code?: string;
  /** The gadget's files as they ran (a Code Mode run's code file is `code` instead). */
  files: GadgetFile[];
  droppedEvents: number;
}

const json = (value: JsonValue): string => JSON.stringify(value, null, 2) ?? "null";

/** What a chosen record shows beside the list. */
export function runDetails(record: RunRecord): RunDetails {
  const { outcome } = record;
  const code =
    record.source.kind === "code" ? record.files.find((file) => file.path === CODE_MODE_FILE)?.content : undefined;
  return {
    title: `Run of ${record.name}`,
    payload: json(record.payload),
    outcome:
      outcome.status === "ok"
        ? json(outcome.result)
        : `${outcomeWords({ status: "error", kind: outcome.kind })}: ${outcome.message}`,
    ...(outcome.status === "error" && outcome.error?.stack ? { stack: outcome.error.stack } : {}),
    ...(code === undefined ? {} : { code }),
    files: code === undefined ? record.files : record.files.filter((file) => file.path !== CODE_MODE_FILE),
    droppedEvents: record.droppedEvents,
  };
}

/** The header of a recorded run in the console, so it is not mistaken for a run made now. */
export function consoleName(record: Pick<RunRecord, "name" | "source" | "via">): string {
  return `${record.name} (${sourceText(record.source)}, ${viaText(record.via)}, recorded)`;
}
