import { useMemo, useState } from "react";
import { checkTests, type GadgetFile, TESTS_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import type { TestsView } from "../runs/draft-output.ts";
import { type RowStatus, type TestRow, testRows } from "../tests/test-rows.ts";
import { TestDiff } from "./TestDiff.tsx";

const STATUS_TEXT: Record<RowStatus, string> = { passed: "✓ pass", failed: "✗ fail", running: "…", "not run": "–" };
const STATUS_STYLE: Record<RowStatus, string> = {
  passed: "text-emerald-700 dark:text-emerald-400",
  failed: "text-red-700 dark:text-red-400",
  running: "text-zinc-600 dark:text-zinc-400",
  "not run": "text-zinc-600 dark:text-zinc-400",
};

/** The draft's test cases with their status, Run tests (Ctrl/Cmd+Shift+Enter), and each failing case's diff (shown until folded). */
export function TestsPanel({
  editor,
  files,
  tests,
  onRun,
  onOpenFile,
}: {
  editor: DraftEditor;
  files: readonly GadgetFile[];
  /** The open draft's test results (its own output's). */
  tests: TestsView;
  /** Runs the tests (Ctrl/Cmd+Shift+Enter is the Workbench's app command, which also shows this panel). */
  onRun(): void;
  onOpenFile(path: string): void;
}) {
  const { state, results, last } = tests;
  // Failing cases show their diff; the person may fold one away.
  const [folded, setFolded] = useState<ReadonlySet<string>>(new Set());
  const cases = useMemo(() => checkTests(files), [files]);
  const running = state.status === "running";
  const rows = testRows(cases.ok ? cases.value : [], results, last, running, editor.version);

  const summary = state.status === "done" ? state.summary : undefined;
  return (
    <section className="flex h-full flex-col text-xs" aria-label="Tests">
      <div className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 dark:border-zinc-800">
        <h2 className="font-semibold">Tests</h2>
        <span className="text-zinc-600 dark:text-zinc-400" data-testid="tests-summary" aria-live="polite">
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
          className="rounded bg-emerald-700 px-2 py-0.5 text-white disabled:opacity-50"
          onClick={onRun}
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
          <p className="p-2 text-zinc-600 dark:text-zinc-400">
            No test cases yet. Run the gadget, then “Save as test case”, or add {TESTS_PATH} (see Help).
          </p>
        ) : (
          <table className="w-full text-left" data-testid="tests-table">
            <tbody>
              {rows.map((row) => (
                <FragmentRow
                  key={row.name}
                  row={row}
                  open={!folded.has(row.name)}
                  onToggle={() =>
                    setFolded((previous) => {
                      const next = new Set(previous);
                      if (!next.delete(row.name)) next.add(row.name);
                      return next;
                    })
                  }
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
            <button
              type="button"
              className="min-h-6 underline decoration-dotted"
              onClick={onToggle}
              aria-expanded={open}
            >
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
        <td className="px-2 text-right tabular-nums text-zinc-600 dark:text-zinc-400">
          {row.result ? `${row.result.outcome.timings.totalMs} ms` : ""}
        </td>
      </tr>
      {failing && open && (
        <tr>
          <td colSpan={3}>{row.result && <TestDiff result={row.result} />}</td>
        </tr>
      )}
    </>
  );
}
