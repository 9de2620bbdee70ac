import { useEffect, useMemo, useState } from "react";
import type { ErrorGroup, StackFrame } from "@gadgets/workshop-shared";
import { ago, type Problem, sourceWords, toProblem, versionWords } from "../problems/problems.ts";

/** One failure group: what, how often, when, where (click a frame to open it), and its last run. */
function ProblemRow({
  problem,
  now,
  fresh,
  onOpenFrame,
  onOpenRun,
}: {
  problem: Problem;
  now: number;
  fresh: boolean;
  onOpenFrame(problem: Problem, frame: StackFrame): void;
  onOpenRun(runId: string): void;
}) {
  const { group } = problem;
  const own = problem.frames.filter((frame) => frame.file !== "<runtime>");
  const version = versionWords(problem);
  return (
    <li className="border-b border-zinc-100 px-2 py-1.5 dark:border-zinc-800" data-testid="problem">
      <div className="flex items-baseline gap-2">
        <span
          className="rounded-full bg-red-100 px-1.5 text-[11px] font-semibold tabular-nums text-red-800 dark:bg-red-900 dark:text-red-100"
          title={`${group.count} times`}
          data-testid="problem-count"
        >
          ×{group.count}
        </span>
        <span className="min-w-0 flex-1 truncate font-mono text-red-800 dark:text-red-300">
          {group.name}: {group.message}
        </span>
        {fresh && (
          <span className="rounded bg-amber-200 px-1 text-[10px] uppercase text-amber-900" data-testid="problem-new">
            new
          </span>
        )}
      </div>
      <div className="mt-0.5 flex flex-wrap gap-x-3 text-[11px] text-zinc-600 dark:text-zinc-400">
        {problem.gadget && (
          <span data-testid="problem-gadget">
            {problem.gadget}
            {version && ` ${version}`}
            {sourceWords(problem)}
          </span>
        )}
        <span title={new Date(group.firstSeen).toLocaleString()}>first {ago(group.firstSeen, now)}</span>
        <span title={new Date(group.lastSeen).toLocaleString()}>last {ago(group.lastSeen, now)}</span>
        {problem.runId && (
          <button
            type="button"
            className="text-sky-700 underline dark:text-sky-300"
            onClick={() => problem.runId && onOpenRun(problem.runId)}
          >
            open the last run
          </button>
        )}
      </div>
      {own.length > 0 && (
        <ul className="ml-3 mt-0.5 font-mono text-[11px]">
          {own.slice(0, 5).map((frame, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a stack's frames never reorder, and may repeat
            <li key={i}>
              at {frame.fn ? `${frame.fn} ` : ""}
              <button
                type="button"
                className="underline decoration-dotted hover:text-red-600"
                onClick={() => onOpenFrame(problem, frame)}
                aria-label={`Open ${frame.file} at line ${frame.line}`}
              >
                {frame.file}:{frame.line}:{frame.column}
              </button>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The workspace's failures, grouped by fingerprint; fresh ones are marked until seen. */
export function ProblemsPanel({
  groups,
  fresh,
  onOpenFrame,
  onOpenRun,
}: {
  groups: readonly ErrorGroup[] | undefined;
  fresh: ReadonlySet<string>;
  onOpenFrame(problem: Problem, frame: StackFrame): void;
  onOpenRun(runId: string): void;
}) {
  const problems = useMemo(() => (groups ?? []).map(toProblem), [groups]);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 10_000);
    return () => clearInterval(timer);
  }, []);
  if (groups === undefined) return <p className="p-3 text-xs text-zinc-600 dark:text-zinc-400">Loading problems…</p>;
  if (problems.length === 0)
    return (
      <p className="p-3 text-xs text-zinc-600 dark:text-zinc-400" data-testid="problems-empty">
        No problems. When a run of a draft or a published agent fails (an uncaught error, a timeout), it is grouped here
        with how often it happened and where — click a frame to jump to that line.
      </p>
    );
  return (
    <ul className="h-full overflow-auto text-xs" aria-label="Problems" data-testid="problems">
      {problems.map((problem) => (
        <ProblemRow
          key={problem.group.fingerprint}
          problem={problem}
          now={now}
          fresh={fresh.has(problem.group.fingerprint)}
          onOpenFrame={onOpenFrame}
          onOpenRun={onOpenRun}
        />
      ))}
    </ul>
  );
}
