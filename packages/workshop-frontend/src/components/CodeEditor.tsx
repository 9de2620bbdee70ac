import { lazy, Suspense } from "react";
import type { MonacoViewProps } from "../editor/monaco-view.tsx";

const loadMonacoView = () => import("../editor/monaco-view.tsx");
const MonacoView = lazy(loadMonacoView);

/**
 * Starts downloading the editor at once, while the page still connects and opens the draft; the IDE
 * calls it because it always shows an editor. Pages that only may (the embed) wait for the edit.
 */
export function preloadEditor(): void {
  void loadMonacoView().catch(() => undefined);
}

/** The code editor; Monaco arrives in its own chunk the first time an editor is shown. */
export function CodeEditor(props: MonacoViewProps) {
  return (
    <Suspense fallback={<div className="p-4 text-sm text-zinc-600 dark:text-zinc-400">Loading the editor…</div>}>
      <MonacoView {...props} />
    </Suspense>
  );
}
