import type { RunDiff } from "../console/run-diff.ts";

/** What changed between a recorded run and its run again: the outcome, the result, console lines, time. */
export function RunDiffView({ diff }: { diff: RunDiff }) {
  return (
    <section
      aria-label="Differences"
      data-testid="run-diff"
      className="rounded border border-zinc-200 p-1 text-xs dark:border-zinc-800"
    >
      {diff.lines.comparedFirst !== undefined && (
        <p className="text-zinc-500">
          The record kept its first {diff.lines.comparedFirst} console lines: only as many of this run's were compared.
        </p>
      )}
      {diff.same ? (
        <p>
          Same outcome, result and console lines ({diff.time.beforeMs} ms then, {diff.time.afterMs} ms now).
        </p>
      ) : (
        <ul className="space-y-0.5">
          {!diff.outcome.same && (
            <li className="text-amber-700 dark:text-amber-300">
              outcome: <bdi>{diff.outcome.before}</bdi> → <bdi>{diff.outcome.after}</bdi>
            </li>
          )}
          {!diff.result.same && (
            <li className="text-amber-700 dark:text-amber-300">
              result: <bdi>{diff.result.before}</bdi> → <bdi>{diff.result.after}</bdi>
            </li>
          )}
          {diff.lines.onlyBefore.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            <li key={`b${i}`} className="text-red-700 dark:text-red-300">
              − <bdi>{line}</bdi>
            </li>
          ))}
          {diff.lines.onlyAfter.map((line, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            <li key={`a${i}`} className="text-emerald-700 dark:text-emerald-300">
              + <bdi>{line}</bdi>
            </li>
          ))}
          <li>
            time: {diff.time.beforeMs} ms → {diff.time.afterMs} ms
          </li>
        </ul>
      )}
    </section>
  );
}
