import type { LogLevel } from "@gadgets/workshop-shared";
import { outcomeTitle, outcomeWordsOf } from "@gadgets/workshop-shared/run-words";
import type { EmbedState } from "./embed-controller.ts";

const LEVEL_STYLE: Partial<Record<LogLevel, string>> = {
  error: "text-red-700 dark:text-red-300",
  warn: "text-amber-700 dark:text-amber-300",
};

/** The embed's console: the latest run's lines as text, then its outcome. */
export function EmbedConsole({ lines, outcome }: Pick<EmbedState, "lines" | "outcome">) {
  return (
    <section
      className="h-2/5 min-h-0 overflow-auto border-t border-zinc-200 font-mono text-xs dark:border-zinc-800"
      aria-label="Console"
      data-testid="embed-console"
    >
      {lines.map((line) => (
        <div
          key={line.id}
          className={`whitespace-pre-wrap px-2 ${LEVEL_STYLE[line.level] ?? ""}`}
          data-testid="console-line"
        >
          {line.text}
        </div>
      ))}
      {outcome && (
        <div className="px-2 text-zinc-600 dark:text-zinc-400" data-testid="embed-outcome">
          {outcome.status === "ok" ? (
            `→ ${JSON.stringify(outcome.result)}`
          ) : (
            <>
              <span title={outcomeTitle(outcome)}>✗ {outcomeWordsOf(outcome)}</span>: {outcome.message}
            </>
          )}
        </div>
      )}
    </section>
  );
}
