/** The strips under the IDE's toolbar: the first visit's welcome, a save conflict (notices are toasts: `Toasts.tsx`). */

import type { DraftEditor, SaveState } from "../drafts/draft-editor.ts";
import { Icon } from "./Icon.tsx";

export function WelcomeBanner({ onHelp, onDismiss }: { onHelp(): void; onDismiss(): void }) {
  return (
    <div
      className="flex items-center gap-2 border-b border-sky-200 bg-sky-50 px-3 py-1 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
      role="status"
      data-testid="welcome"
    >
      <span className="flex-1">
        A <strong>gadget</strong> is a small TypeScript agent: its <code>run(payload, env)</code> returns a result.
        Press <kbd className="font-mono">Ctrl+Enter</kbd> to run this one, or read{" "}
        <button type="button" className="underline" onClick={onHelp}>
          the gadget contract
        </button>
        .
      </span>
      <button type="button" onClick={onDismiss} aria-label="Dismiss the welcome">
        ×
      </button>
    </div>
  );
}

export function ConflictBanner({
  state,
  editor,
  onCompare,
}: {
  state: Extract<SaveState, { status: "conflict" }>;
  editor: DraftEditor;
  onCompare(): void;
}) {
  return (
    <div
      className="flex flex-wrap items-center gap-2 bg-red-50 px-3 py-1 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
      role="alert"
      data-testid="conflict"
    >
      <span className="flex-1">{state.message}</span>
      <button type="button" className="flex items-center gap-1 rounded bg-red-700 px-2 text-white" onClick={onCompare}>
        <Icon name="merge" className="h-3.5 w-3.5" />
        Compare and merge…
      </button>
      <button
        type="button"
        className="rounded border border-current px-2"
        onClick={() => void editor.resolveConflict("mine")}
      >
        Keep mine
      </button>
      <button
        type="button"
        className="rounded border border-current px-2"
        onClick={() => void editor.resolveConflict("theirs")}
      >
        Take theirs
      </button>
    </div>
  );
}
