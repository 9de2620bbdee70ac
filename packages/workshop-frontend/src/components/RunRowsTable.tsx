import type { RunRow } from "../runs/run-history.ts";

/** The columns a run list can show, in this order; the first one shown holds the button that chooses the run. */
export type RunColumn = "gadget" | "when" | "source" | "via" | "outcome" | "duration";

const HEADINGS: Record<RunColumn, string> = {
  gadget: "Gadget",
  when: "When",
  source: "What ran",
  via: "Started by",
  outcome: "Outcome",
  duration: "Duration",
};

function Cell({ row, column }: { row: RunRow; column: RunColumn }) {
  switch (column) {
    case "gadget":
      return <bdi>{row.name}</bdi>;
    case "when":
      return <span title={row.at}>{row.when}</span>;
    case "source":
      return <>{row.source}</>;
    case "via":
      return (
        <>
          {row.via}
          {row.trigger && (
            <span
              className={`block font-mono ${row.httpFailed ? "text-red-700 dark:text-red-400" : "text-zinc-600 dark:text-zinc-400"}`}
              data-testid="run-row-trigger"
            >
              {row.trigger}
            </span>
          )}
        </>
      );
    case "outcome":
      return <>{row.outcome}</>;
    case "duration":
      return <>{row.duration}</>;
  }
}

const cellClass = (column: RunColumn, row: RunRow) =>
  `px-1 py-0.5 ${column === "duration" ? "text-right whitespace-nowrap" : column === "when" ? "whitespace-nowrap" : ""} ${
    column === "outcome"
      ? row.failed
        ? "text-red-700 dark:text-red-400"
        : "text-emerald-700 dark:text-emerald-400"
      : ""
  }`;

/**
 * Runs as a table of words (from `runRows`), newest first: the Runs view of the workspace and each
 * draft's Runs tab. A click anywhere on a row, or Enter on its button, chooses the run.
 */
export function RunRowsTable({
  rows,
  columns,
  selected,
  onChoose,
  caption,
  disabled,
}: {
  rows: readonly RunRow[];
  columns: readonly RunColumn[];
  selected: string | undefined;
  onChoose(runId: string): void;
  caption: string;
  /** Rows can't be chosen now (a run of the draft is going). */
  disabled?: boolean;
}) {
  const [first, ...rest] = columns;
  return (
    <table className="w-full border-collapse text-left text-xs" data-testid="run-history">
      <caption className="sr-only">{caption}</caption>
      <thead className="sticky top-0 z-10 bg-white text-zinc-600 dark:bg-zinc-900 dark:text-zinc-400">
        <tr>
          {columns.map((column) => (
            <th
              key={column}
              scope="col"
              className={`px-1 py-0.5 font-normal ${column === "duration" ? "text-right" : ""}`}
            >
              {HEADINGS[column]}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr
            key={row.runId}
            className={`relative border-t border-zinc-200 hover:bg-zinc-100 dark:border-zinc-800 dark:hover:bg-zinc-800 ${selected === row.runId ? "bg-sky-50 dark:bg-sky-950/50" : ""}`}
            data-testid="run-row"
            data-run-id={row.runId}
          >
            {first && (
              <td className={cellClass(first, row)} title={first === "outcome" ? row.outcomeTitle : undefined}>
                {/* The button's box covers the row, so a click anywhere on it chooses the run. */}
                <button
                  type="button"
                  className="font-semibold text-sky-700 underline-offset-2 after:absolute after:inset-0 hover:underline focus-visible:outline-2 disabled:text-zinc-500 dark:text-sky-300"
                  aria-current={selected === row.runId ? "true" : undefined}
                  onClick={() => onChoose(row.runId)}
                  disabled={disabled}
                >
                  <Cell row={row} column={first} />
                  <span className="sr-only">: show this run</span>
                </button>
              </td>
            )}
            {rest.map((column) => (
              <td
                key={column}
                className={cellClass(column, row)}
                title={column === "outcome" ? row.outcomeTitle : undefined}
              >
                <Cell row={row} column={column} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
