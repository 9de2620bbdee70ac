/**
 * The lines of `gadgets logs`: a run summary as one line of words (when it started, how it ended, how
 * long it took, which version ran, what triggered it — an HTTP request's method, path and status, a
 * schedule's slot — and its run id), and which runs of a poll are new. Every string from the Workshop is
 * escaped (terminal-text.ts) before it is returned.
 */

import { outcomeWords, type RunSummary, type RunVia, triggerWords } from "@gadgets/workshop-shared";
import { escapeControls } from "./terminal-text.ts";
import { utcSecond } from "./text-table.ts";

/** A duration as a reader takes it in: milliseconds under a second, else seconds with one decimal. */
export function durationWords(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

const VIA_WORDS: Record<RunVia, string> = { rpc: "API", mcp: "MCP", http: "HTTP", schedule: "schedule" };

/** Who started the run, and for a triggered one what fired it: `HTTP POST /hook → 200`. */
export function triggerText(run: Pick<RunSummary, "via" | "trigger">): string {
  const via = run.via ?? "rpc";
  // A way this command line does not know yet is shown as it came.
  const words = Object.hasOwn(VIA_WORDS, via) ? VIA_WORDS[via] : String(via);
  return escapeControls(run.trigger ? `${words} ${triggerWords(run.trigger, utcSecond)}` : words);
}

/** What ran: `weather@3`, a draft's `name (draft saved #2)`, or Code Mode. */
function sourceWords(run: RunSummary): string {
  switch (run.source.kind) {
    case "agent":
      return `${run.name}@${run.source.version}`;
    case "draft":
      return `${run.name} (draft saved #${run.source.version})`;
    case "code":
      return "Code Mode";
  }
}

/** Outcome words are padded to the common ones ("timed out", "cancelled"), so the columns mostly line up. */
const OUTCOME_WIDTH = 9;
const DURATION_WIDTH = 7;

/** One run as a line (no newline), escaped. */
export function runLine(run: RunSummary): string {
  return [
    utcSecond(run.startedAt),
    outcomeWords(run).padEnd(OUTCOME_WIDTH),
    durationWords(run.totalMs).padStart(DURATION_WIDTH),
    escapeControls(sourceWords(run)),
    triggerText(run),
    escapeControls(run.runId),
  ].join("  ");
}

/** Run ids remembered as shown; past this the oldest are forgotten (a run is listed only while it is new). */
const SEEN_KEPT = 10_000;

/** Which runs of each poll were not shown yet. */
export class NewRuns {
  readonly #seen = new Set<string>();

  /** The runs of `listed` not shown yet, oldest first; they count as shown from now on. */
  take(listed: readonly RunSummary[]): RunSummary[] {
    const fresh = listed.filter((run) => !this.#seen.has(run.runId));
    for (const run of fresh) this.#seen.add(run.runId);
    for (const runId of this.#seen) {
      if (this.#seen.size <= SEEN_KEPT) break;
      this.#seen.delete(runId);
    }
    return fresh.sort((a, b) => a.startedAt - b.startedAt);
  }
}
