import { Icon } from "./Icon.tsx";

export type OutputTab = "console" | "problems";

/** The tabs over the IDE's output: the console, and the problems with how many are new. */
export function OutputTabs({
  tab,
  onTab,
  problemCount,
  freshCount,
}: {
  tab: OutputTab;
  onTab(tab: OutputTab): void;
  problemCount: number;
  freshCount: number;
}) {
  const tabClass = (which: OutputTab) =>
    `flex items-center gap-1 px-2 py-1 ${tab === which ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-500"}`;
  return (
    <>
      <div
        className="flex shrink-0 items-center gap-1 border-b border-zinc-200 px-1 text-xs dark:border-zinc-800"
        role="tablist"
        aria-label="Output"
      >
        <button
          type="button"
          role="tab"
          aria-selected={tab === "console"}
          className={tabClass("console")}
          onClick={() => onTab("console")}
        >
          <Icon name="terminal" className="h-3.5 w-3.5" />
          Console
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === "problems"}
          className={tabClass("problems")}
          onClick={() => onTab("problems")}
          data-testid="problems-tab"
        >
          <Icon name="problem" className="h-3.5 w-3.5" />
          Problems
          {problemCount > 0 && (
            <span
              className={`rounded-full px-1.5 tabular-nums ${freshCount > 0 ? "bg-amber-400 text-amber-950" : "bg-zinc-200 dark:bg-zinc-700"}`}
              title={freshCount > 0 ? `${freshCount} new or happened again` : undefined}
            >
              {freshCount > 0 ? `${freshCount} new` : problemCount}
            </span>
          )}
        </button>
      </div>
      <p className="sr-only" aria-live="polite">
        {freshCount > 0 ? `${freshCount} new problems` : ""}
      </p>
    </>
  );
}
