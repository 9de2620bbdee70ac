import { useEffect, useMemo, useState } from "react";
import { checkTests, type GadgetFile, TESTS_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { useTests } from "../hooks/use-tests.ts";
import { type RowStatus, showValue, type TestRow, testRows } from "../tests/test-rows.ts";

const STATUS_TEXT: Record<RowStatus, string> = { passed: "✓ pass", failed: "✗ fail", running: "…", "not run": "–" };
const STATUS_STYLE: Record<RowStatus, string> = {
  passed: "text-emerald-700 dark:text-emerald-400",
  failed: "text-red-700 dark:text-red-400",
  running: "text-zinc-500",
  "not run": "text-zinc-500",
};

function Diff({ row }: { row: TestRow }) {
  const result = row.result;
  if (!result) return null;
  return (
    <div className="space-y-1 px-2 pb-2" data-testid="test-diff">
      <table className="w-full text-left">
        <thead className="text-zinc-500">
          <tr>
            <th className="font-normal">check</th>
            <th className="font-normal">where</th>
            <th className="font-normal">expected</th>
            <th className="font-normal">actual</th>
          </tr>
        </thead>
        <tbody className="font-mono">
          {result.failures.map((failure, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            <tr key={i} title={failure.message}>
              <td>{failure.check}</td>
              <td>{failure.path}</td>
              <td className="text-emerald-700 dark:text-emerald-400">{showValue(failure.expected)}</td>
              <td className="text-red-700 dark:text-red-400">{showValue(failure.actual, failure.missing)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.outcome.status === "error" && <p className="text-red-700 dark:text-red-400">{result.outcome.message}</p>}
    </div>
  );
}

/** The draft's test cases with their status, Run tests (Ctrl/Cmd+Shift+Enter), and the diff of a failing case. */
export function TestsPanel({
  editor,
  files,
  onOpenFile,
}: {
  editor: DraftEditor;
  files: readonly GadgetFile[];
  onOpenFile(path: string): void;
}) {
  const { state, results, last, run } = useTests(editor);
  const [open, setOpen] = useState<string>();
  const cases = useMemo(() => checkTests(files), [files]);
  const running = state.status === "running";
  const rows = testRows(cases.ok ? cases.value : [], results, last, running, editor.version);

  // Caught before the editor sees it, so Monaco's own Shift+Enter handling never runs it twice.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.shiftKey && event.key === "Enter") {
        event.preventDefault();
        event.stopPropagation();
        void run();
      }
    };
    window.addEventListener("keydown", onKey, true);
    return () => window.removeEventListener("keydown", onKey, true);
  }, [run]);

  const summary = state.status === "done" ? state.summary : undefined;
  return (
    <section className="flex h-full flex-col text-xs" aria-label="Tests">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
        <h2 className="font-semibold">Tests</h2>
        <span className="text-zinc-500" data-testid="tests-summary" aria-live="polite">
          {running && "running…"}
          {summary?.status === "invalid" && "invalid test file"}
          {summary && summary.status !== "invalid" && `${summary.passed}/${summary.total} passed`}
          {state.status === "failed" && "could not run"}
        </span>
        <button
          type="button"
          className="ml-auto rounded px-2 hover:bg-zinc-200 dark:hover:bg-zinc-800"
          onClick={() => onOpenFile(TESTS_PATH)}
          disabled={!files.some((file) => file.path === TESTS_PATH)}
        >
          Edit
        </button>
        <button
          type="button"
          className="rounded bg-emerald-600 px-2 py-0.5 text-white disabled:opacity-50"
          onClick={() => void run()}
          disabled={running}
          title="Run tests (Ctrl+Shift+Enter)"
        >
          Run tests
        </button>
      </div>
      {!cases.ok && (
        <p className="px-2 py-1 text-red-700 dark:text-red-400" role="alert">
          {cases.error}
        </p>
      )}
      {summary?.status === "invalid" && (
        <p className="px-2 py-1 text-red-700 dark:text-red-400" role="alert">
          {summary.message}
        </p>
      )}
      {state.status === "failed" && (
        <p className="px-2 py-1 text-red-700 dark:text-red-400" role="alert">
          {state.message}
        </p>
      )}
      <div className="min-h-0 flex-1 overflow-auto">
        {cases.ok && rows.length === 0 ? (
          <p className="p-2 text-zinc-500">
            No test cases yet. Run the gadget, then “Save as test case”, or add {TESTS_PATH} (see Help).
          </p>
        ) : (
          <table className="w-full text-left" data-testid="tests-table">
            <tbody>
              {rows.map((row) => (
                <FragmentRow
                  key={row.name}
                  row={row}
                  open={open === row.name}
                  onToggle={() => setOpen(open === row.name ? undefined : row.name)}
                />
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}

function FragmentRow({ row, open, onToggle }: { row: TestRow; open: boolean; onToggle(): void }) {
  const failing = row.status === "failed" && row.result !== undefined;
  return (
    <>
      <tr className="border-b border-zinc-100 dark:border-zinc-900" data-testid="test-row" data-status={row.status}>
        <td className="px-2 py-0.5">
          {failing ? (
            <button type="button" className="underline decoration-dotted" onClick={onToggle} aria-expanded={open}>
              {row.name}
            </button>
          ) : (
            row.name
          )}
        </td>
        <td className={`px-2 ${STATUS_STYLE[row.status]}`} title={row.stale ? "from an earlier version" : undefined}>
          {STATUS_TEXT[row.status]}
          {row.stale && " (earlier version)"}
        </td>
        <td className="px-2 text-right tabular-nums text-zinc-500">
          {row.result ? `${row.result.outcome.timings.totalMs} ms` : ""}
        </td>
      </tr>
      {failing && open && (
        <tr>
          <td colSpan={3}>
            <Diff row={row} />
          </td>
        </tr>
      )}
    </>
  );
}
