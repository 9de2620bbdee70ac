import { type DiffSegment, type TestCaseResult, wordDiff } from "@gadgets/workshop-shared";
import { outcomeWordsOf } from "@gadgets/workshop-shared";
import { showValue } from "../tests/test-rows.ts";

function Highlighted({ segments, tone }: { segments: DiffSegment[]; tone: "expected" | "actual" }) {
  const mark =
    tone === "expected"
      ? "rounded-sm bg-emerald-200 text-emerald-950 dark:bg-emerald-800 dark:text-emerald-50"
      : "rounded-sm bg-red-200 text-red-950 dark:bg-red-800 dark:text-red-50";
  return (
    <>
      {segments.map((segment, i) =>
        segment.changed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <mark key={i} className={mark} data-testid="diff-changed">
            {segment.text}
          </mark>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <span key={i}>{segment.text}</span>
        ),
      )}
    </>
  );
}

/**
 * What a failing case got wrong: each difference with its check and JSON path, the expected and the
 * actual value on lines of their own, the words that differ highlighted; then the run's error, if any.
 */
export function TestDiff({ result }: { result: TestCaseResult }) {
  return (
    <div className="space-y-2 px-2 pb-2" data-testid="test-diff">
      {result.failures.map((failure, i) => {
        const expected = showValue(failure.expected);
        const actual = showValue(failure.actual, failure.missing);
        const diff = failure.missing
          ? { expected: [{ text: expected, changed: true }], actual: [] }
          : wordDiff(expected, actual);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
          <div key={i} className="rounded border border-zinc-200 p-1.5 dark:border-zinc-800">
            <p className="mb-1 text-zinc-700 dark:text-zinc-300">
              <span className="font-semibold">{failure.check}</span>
              {failure.path !== "$" && <span className="font-mono"> at {failure.path}</span>}
              <span className="sr-only">: {failure.message}</span>
            </p>
            <dl className="grid grid-cols-[max-content_1fr] gap-x-2 gap-y-0.5 font-mono">
              <dt className="text-zinc-600 dark:text-zinc-400">expected</dt>
              <dd className="break-all whitespace-pre-wrap">
                <Highlighted segments={diff.expected} tone="expected" />
              </dd>
              <dt className="text-zinc-600 dark:text-zinc-400">actual</dt>
              <dd className="break-all whitespace-pre-wrap">
                {failure.missing ? "(missing)" : <Highlighted segments={diff.actual} tone="actual" />}
              </dd>
            </dl>
          </div>
        );
      })}
      {result.outcome.status === "error" && (
        <p className="text-red-700 dark:text-red-400">
          <span title={`kind: ${result.outcome.kind}`}>{outcomeWordsOf(result.outcome)}</span>: {result.outcome.message}
        </p>
      )}
    </div>
  );
}
