/**
 * The workspace's recent runs as the Runs view (the invocation log) lists them: a row of words per run
 * (what ran, who or what started it — an HTTP request's method, path and status, a schedule's slot —, how
 * it ended, when, how long), the filters (by agent, by trigger) as the list call takes them, and what a
 * chosen record shows beside the list.
 */

import {
  type AgentSummary,
  type GadgetFile,
  type JsonValue,
  outcomeTitle,
  outcomeWords,
  type RunListFilter,
  type RunRecord,
  type RunSource,
  type RunSummary,
  type RunTrigger,
  type RunVia,
  triggerWords,
} from "@gadgets/workshop-shared";
import { agentVersionText, savedRevisionText } from "../drafts/version-words.ts";
import { ago } from "../problems/problems.ts";

export { outcomeWords } from "@gadgets/workshop-shared";

/** How many runs the view asks for: a screenful to scan, not an archive. */
export const RUN_HISTORY_LIMIT = 50;

/**
 * How often the open view asks for the runs again. Runs from HTTP endpoints, schedules, MCP clients and
 * other sessions start in no session of this IDE, so nothing can push them to it: it polls, every 2 s
 * (live enough to watch a webhook land; one small indexed query per turn).
 */
export const RUN_LOG_POLL_MS = 2000;

/** The view's filters: an agent (its id; null: any run) and how runs started (null: any way). */
export interface RunLogChoice {
  agentId: string | null;
  via: RunVia | null;
}

export const NO_FILTER: RunLogChoice = { agentId: null, via: null };

/** The trigger filter's choices, in the select's order; "" is "all". */
export const TRIGGER_CHOICES: readonly { value: RunVia | ""; label: string }[] = [
  { value: "", label: "all" },
  { value: "rpc", label: "IDE / API" },
  { value: "mcp", label: "MCP" },
  { value: "http", label: "HTTP" },
  { value: "schedule", label: "schedule" },
];

/** The trigger a select's value stands for ("" and anything unknown: all). */
export function viaChoice(value: string): RunVia | null {
  return TRIGGER_CHOICES.find((choice) => choice.value === value && value !== "")?.value || null;
}

/**
 * The agent filter's choices: the workspace's published agents by name, "" first (all runs). Agents that
 * share a name are told apart by their id's start.
 */
export function agentChoices(agents: readonly AgentSummary[]): { value: string; label: string }[] {
  const named = new Map<string, number>();
  for (const agent of agents) named.set(agent.name, (named.get(agent.name) ?? 0) + 1);
  const sorted = [...agents].sort((a, b) => a.name.localeCompare(b.name) || a.agentId.localeCompare(b.agentId));
  return [
    { value: "", label: "all runs" },
    ...sorted.map((agent) => ({
      value: agent.agentId,
      label: (named.get(agent.name) ?? 0) > 1 ? `${agent.name} (${agent.agentId.slice(0, 6)}…)` : agent.name,
    })),
  ];
}

/** The choice as `listRuns` takes it; no filter at all when nothing is chosen. */
export function runListFilter(choice: RunLogChoice): RunListFilter | null {
  if (choice.agentId === null && choice.via === null) return null;
  return { ...(choice.agentId ? { agent: choice.agentId } : {}), ...(choice.via ? { via: choice.via } : {}) };
}

/** What the list says when a choice matches no run. */
export function emptyText(choice: RunLogChoice): string {
  if (choice.agentId === null && choice.via === null)
    return "No runs yet. Runs from the IDE, the API, the command line, MCP clients, HTTP endpoints and schedules show here.";
  const how = TRIGGER_CHOICES.find((option) => option.value === choice.via)?.label;
  return `No runs ${choice.agentId ? "of this agent " : ""}${choice.via ? `started by ${how} ` : ""}yet. New ones show here as they come.`;
}

/** The file of a Code Mode run that holds the code it was sent. */
export const CODE_MODE_FILE = "code.ts";

export interface RunRow {
  runId: string;
  name: string;
  /** "draft saved #3", "agent v2", "Code Mode". */
  source: string;
  /** "IDE / API", "from MCP", "HTTP endpoint", "schedule". */
  via: string;
  /** What fired a triggered run: "POST /hook → 200", "every 10m, slot 12:00:00". */
  trigger?: string;
  /** An HTTP run's answer was an error status (4xx, 5xx): shown as a failure whatever the run's outcome. */
  httpFailed?: boolean;
  /** In plain words: "ok", "threw", "timed out"… */
  outcome: string;
  /** The tooltip: the outcome's internal kind, "kind: user" (`outcomeTitle`). */
  outcomeTitle: string;
  failed: boolean;
  /** "3 min ago", or the local date and time past two days. */
  when: string;
  /** The local date and time, for a tooltip. */
  at: string;
  /** "12 ms", "1.5 s". */
  duration: string;
}

/** What ran, in words. */
export function sourceText(source: RunSource): string {
  switch (source.kind) {
    case "draft":
      return `draft ${savedRevisionText(source.version)}`;
    case "agent":
      return `agent ${agentVersionText(source.version)}`;
    case "code":
      return "Code Mode";
  }
}

/** Who started the run; records made before `via` existed came over the RPC API. */
export function viaText(via: RunVia | undefined): string {
  switch (via) {
    case "mcp":
      return "from MCP";
    case "http":
      return "HTTP endpoint";
    case "schedule":
      return "schedule";
    default:
      return "IDE / API";
  }
}

/** What fired a triggered run, its slot in local time; none for runs a client started. */
export function triggerText(trigger: RunTrigger | undefined): string | undefined {
  return trigger ? triggerWords(trigger, (at) => new Date(at).toLocaleString()) : undefined;
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
    ...(run.trigger ? { trigger: triggerText(run.trigger) } : {}),
    ...(run.trigger?.kind === "http" && run.trigger.status >= 400 ? { httpFailed: true } : {}),
    outcome: outcomeWords(run),
    outcomeTitle: outcomeTitle(run),
    failed: run.status !== "ok",
    when: whenText(run.startedAt, now),
    at: new Date(run.startedAt).toLocaleString(),
    duration: durationText(run.totalMs),
  }));
}

export interface RunDetails {
  /** "Run of weather". */
  title: string;
  /** What fired it, for a triggered run (as in its row). */
  trigger?: string;
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
    ...(record.trigger ? { trigger: triggerText(record.trigger) } : {}),
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
