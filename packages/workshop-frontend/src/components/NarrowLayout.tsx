import type { KeyboardEvent, ReactNode } from "react";
import { Dialog } from "./Dialog.tsx";

/** What a narrow page shows at a time: the code, the run strip (payload, Run, result), or the output panel. */
export type NarrowView = "code" | "run" | "output";

const VIEWS: readonly { id: NarrowView; label: string }[] = [
  { id: "code", label: "Code" },
  { id: "run", label: "Run" },
  { id: "output", label: "Output" },
];

/** The tabs of the one-column IDE below 768 px. */
export function NarrowTabs({ view, onView }: { view: NarrowView; onView(view: NarrowView): void }) {
  const onKey = (event: KeyboardEvent) => {
    const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
    if (step === 0) return;
    const at = VIEWS.findIndex((which) => which.id === view);
    const next = VIEWS[(at + step + VIEWS.length) % VIEWS.length]?.id ?? view;
    onView(next);
    document.getElementById(`narrow-tab-${next}`)?.focus();
  };
  return (
    <div
      className="flex shrink-0 border-b border-zinc-200 text-sm dark:border-zinc-800"
      role="tablist"
      aria-label="Show"
      data-testid="narrow-tabs"
    >
      {VIEWS.map((which) => (
        <button
          key={which.id}
          type="button"
          role="tab"
          id={`narrow-tab-${which.id}`}
          aria-selected={view === which.id}
          tabIndex={view === which.id ? 0 : -1}
          className={`min-h-9 flex-1 px-2 ${view === which.id ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-600 dark:text-zinc-400"}`}
          onClick={() => onView(which.id)}
          onKeyDown={onKey}
        >
          {which.label}
        </button>
      ))}
    </div>
  );
}

/** The sidebar (drafts, files, manifest, grants) as a drawer over a narrow page. */
export function SidebarDrawer({ onClose, children }: { onClose(): void; children: ReactNode }) {
  return (
    <Dialog title="Drafts and files" onClose={onClose} size="drawer" testId="sidebar-drawer">
      <div className="-m-4">{children}</div>
    </Dialog>
  );
}
