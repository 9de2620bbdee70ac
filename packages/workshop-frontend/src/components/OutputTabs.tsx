import type { KeyboardEvent, ReactNode } from "react";
import { Icon, type IconName } from "./Icon.tsx";

export type OutputTab = "console" | "trace" | "tests" | "problems" | "runs";

const TABS: readonly { id: OutputTab; label: string; icon: IconName }[] = [
  { id: "console", label: "Console", icon: "terminal" },
  { id: "trace", label: "Trace", icon: "trace" },
  { id: "tests", label: "Tests", icon: "tests" },
  { id: "problems", label: "Problems", icon: "problem" },
  { id: "runs", label: "Runs", icon: "history" },
];

/** The id of a tab's panel, for `aria-controls` and the panel's own `id`. */
export const outputPanelId = (tab: OutputTab) => `output-panel-${tab}`;
export const outputTabId = (tab: OutputTab) => `output-tab-${tab}`;

/**
 * The tabs over the IDE's one output panel — Console, Trace, Tests, Problems, Runs — each with its count
 * (lines, spans, cases, problems with how many are new, the draft's runs). Arrow keys move between them,
 * as in any tab list.
 */
export function OutputTabs({
  tab,
  onTab,
  counts,
  freshCount,
}: {
  tab: OutputTab;
  onTab(tab: OutputTab): void;
  /** What each tab's badge says; a tab left out (or with 0) shows none. */
  counts: Partial<Record<OutputTab, number | string>>;
  freshCount: number;
}) {
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const at = TABS.findIndex((which) => which.id === tab);
    const next = TABS[(at + step + TABS.length) % TABS.length]?.id ?? tab;
    onTab(next);
    document.getElementById(outputTabId(next))?.focus();
  };
  const badge = (which: OutputTab): ReactNode => {
    if (which === "problems" && freshCount > 0)
      return (
        <span
          className="rounded-full bg-amber-400 px-1.5 text-amber-950 tabular-nums"
          title={`${freshCount} new or happened again`}
        >
          {freshCount} new
        </span>
      );
    const count = counts[which];
    if (count === undefined || count === 0 || count === "") return null;
    return (
      <span className="rounded-full bg-zinc-200 px-1.5 tabular-nums dark:bg-zinc-700" data-testid={`${which}-count`}>
        {count}
      </span>
    );
  };
  return (
    <>
      <div
        className="flex shrink-0 items-center gap-0.5 overflow-x-auto border-b border-zinc-200 px-1 text-xs dark:border-zinc-800"
        role="tablist"
        aria-label="Output"
      >
        {TABS.map((which) => (
          <button
            key={which.id}
            type="button"
            role="tab"
            id={outputTabId(which.id)}
            aria-selected={tab === which.id}
            aria-controls={outputPanelId(which.id)}
            tabIndex={tab === which.id ? 0 : -1}
            className={`flex min-h-6 shrink-0 items-center gap-1 px-2 py-1 ${tab === which.id ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-600 dark:text-zinc-400"}`}
            onClick={() => onTab(which.id)}
            onKeyDown={onKey}
            data-testid={`${which.id}-tab`}
          >
            <Icon name={which.icon} className="h-3.5 w-3.5" />
            {which.label}
            {badge(which.id)}
          </button>
        ))}
      </div>
      <p className="sr-only" aria-live="polite">
        {freshCount > 0 ? `${freshCount} new problems` : ""}
      </p>
    </>
  );
}
