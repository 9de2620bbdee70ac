/**
 * The Problems view's logic: the workspace's aggregated failures (`listErrors`) read for a person —
 * the stack's frames in the gadget's files (the server already mapped them), which gadget and
 * version, and which groups are new or came back since the person last looked.
 */

import type { ErrorGroup, StackFrame } from "@gadgets/workshop-shared";
import { agentVersionText, savedRevisionText } from "../drafts/version-words.ts";

const FRAME_WITH_FN = /^\s*at (.*?) \((.+):(\d+):(\d+)\)$/;
const FRAME_BARE = /^\s*at (.+):(\d+):(\d+)$/;

/** The frames of a mapped stack (`at fn (index.ts:3:11)`), in order; other lines are skipped. */
export function framesOf(stack: string): StackFrame[] {
  const frames: StackFrame[] = [];
  for (const line of stack.split("\n")) {
    const withFn = FRAME_WITH_FN.exec(line);
    const bare = withFn ? undefined : FRAME_BARE.exec(line);
    const parts = withFn ? withFn.slice(1) : bare ? ["", ...bare.slice(1)] : undefined;
    if (!parts) continue;
    const [fn = "", file = "", lineText = "", columnText = ""] = parts;
    frames.push({ fn, file, line: Number(lineText), column: Number(columnText) });
  }
  return frames;
}

export interface Problem {
  group: ErrorGroup;
  frames: StackFrame[];
  /** `draft`, `agent` or `code` (a Code Mode run, as MCP's `run_code` makes), from the group's last context. */
  sourceKind?: "draft" | "agent" | "code";
  sourceId?: string;
  gadget?: string;
  version?: string;
  /** The last run that hit it (its record can be opened). */
  runId?: string;
  /** Set when an MCP client started that run (the context's `via`). */
  fromMcp?: true;
  /** The schedule that fired that run (`every 10m`), when one did. */
  schedule?: string;
}

export function toProblem(group: ErrorGroup): Problem {
  const context = group.lastContext;
  const source = /^(draft|agent):(.+)$/.exec(context.source ?? "");
  return {
    group,
    frames: framesOf(group.sampleStack),
    ...(source ? { sourceKind: source[1] as "draft" | "agent", sourceId: source[2] } : {}),
    ...(context.source === "code" ? { sourceKind: "code" as const } : {}),
    ...(context.gadget ? { gadget: context.gadget } : {}),
    ...(context.version ? { version: context.version } : {}),
    ...(context.runId ? { runId: context.runId } : {}),
    ...(context.via === "mcp" ? { fromMcp: true as const } : {}),
    ...(context.via === "schedule" && context.schedule ? { schedule: context.schedule } : {}),
  };
}

/** What ran, in words beside the gadget's name: a published agent or code sent to Code Mode, from MCP or on a schedule. */
export function sourceWords(problem: Problem): string {
  const words = [
    problem.sourceKind === "agent" ? "published" : problem.sourceKind === "code" ? "Code Mode" : undefined,
    problem.fromMcp ? "from MCP" : undefined,
    problem.schedule ? `on its schedule ${problem.schedule}` : undefined,
  ].filter(Boolean);
  return words.length > 0 ? ` (${words.join(", ")})` : "";
}

/** Which version failed, in the IDE's words: a draft's `saved #2`, a published agent's `v2`; "" when unknown. */
export function versionWords(problem: Problem): string {
  const number = Number(problem.version);
  if (!problem.version || !Number.isInteger(number)) return "";
  return problem.sourceKind === "draft" ? savedRevisionText(number) : agentVersionText(number);
}

/** What the person has seen: each fingerprint's count when they last looked. */
export type SeenCounts = ReadonlyMap<string, number>;

/** Groups that are new, or happened again, since `seen`. */
export function freshProblems(groups: readonly ErrorGroup[], seen: SeenCounts): ErrorGroup[] {
  return groups.filter((group) => (seen.get(group.fingerprint) ?? 0) < group.count);
}

export function seenCounts(groups: readonly ErrorGroup[]): Map<string, number> {
  return new Map(groups.map((group) => [group.fingerprint, group.count]));
}

/** "3 s ago", "5 min ago": how long ago a timestamp was, for a list that refreshes. */
export function ago(at: number, now: number): string {
  const seconds = Math.max(0, Math.round((now - at) / 1000));
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}
