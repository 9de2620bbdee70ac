import type { ReactNode } from "react";
import type { SaveState } from "../drafts/draft-editor.ts";
import { describeUsage } from "../drafts/usage-text.ts";
import { useUsage } from "../hooks/use-usage.ts";
import type { RunState } from "../runs/run-state.ts";
import { ConnectionBadge, SaveBadge } from "./StatusBadges.tsx";

function runText(state: RunState): string {
  switch (state.status) {
    case "idle":
      return "ready — Ctrl+Enter runs";
    case "running":
      return `${state.phase}…`;
    case "done":
      return state.outcome.status === "ok" ? "last run ok" : `last run: ${state.outcome.kind}`;
    case "interrupted":
      return "run interrupted";
    case "failed":
      return "could not run";
  }
}

/** The bottom line: connection, save and run state, the last run's timings, and room for more (quota). */
export function StatusBar({
  runState,
  saveState,
  children,
}: {
  runState: RunState;
  saveState: SaveState | undefined;
  children?: ReactNode;
}) {
  const timings = runState.status === "done" ? runState.outcome.timings : undefined;
  const failed = runState.status === "done" && runState.outcome.status === "error";
  return (
    <footer
      className="flex h-6 shrink-0 items-center gap-4 overflow-hidden border-t border-zinc-200 bg-zinc-50 px-3 text-xs text-zinc-600 dark:border-zinc-800 dark:bg-zinc-900 dark:text-zinc-400"
      data-testid="status-bar"
    >
      <ConnectionBadge />
      <SaveBadge state={saveState} />
      <span
        className={`truncate ${failed ? "text-red-600 dark:text-red-400" : runState.status === "running" ? "text-sky-700 dark:text-sky-300" : ""}`}
        data-testid="status-run"
      >
        {runText(runState)}
      </span>
      {timings && (
        <span
          className="hidden truncate tabular-nums sm:inline"
          data-testid="status-timings"
          title="Last run's timings"
        >
          queue {timings.queueMs} ms · build {timings.buildMs} ms · run {timings.runMs} ms · total {timings.totalMs} ms
        </span>
      )}
      <span className="ml-auto flex items-center gap-3">{children}</span>
    </footer>
  );
}

/** The workspace's storage against its quota, compact; the full split is in the tooltip. */
export function QuotaStatus() {
  const usage = useUsage();
  if (!usage.data) return null;
  const { text, detail, nearlyFull } = describeUsage(usage.data);
  return (
    <span
      className={nearlyFull ? "text-amber-700 dark:text-amber-400" : undefined}
      title={detail}
      data-testid="status-quota"
    >
      {text}
    </span>
  );
}
