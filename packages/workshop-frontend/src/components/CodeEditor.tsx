import { lazy, Suspense } from "react";
import type { MonacoViewProps } from "../editor/monaco-view.tsx";

const MonacoView = lazy(() => import("../editor/monaco-view.tsx"));

/** The code editor; Monaco arrives in its own chunk the first time an editor is shown. */
export function CodeEditor(props: MonacoViewProps) {
  return (
    <Suspense fallback={<div className="p-4 text-sm text-zinc-500">Loading the editor…</div>}>
      <MonacoView {...props} />
    </Suspense>
  );
}
