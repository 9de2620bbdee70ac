import type { SaveState } from "../drafts/draft-editor.ts";
import { useConnectionState } from "../hooks/workshop-context.tsx";
import { savedRevisionText } from "../drafts/version-words.ts";

export function ConnectionBadge() {
  const state = useConnectionState();
  const text =
    state.status === "connected"
      ? "connected"
      : state.status === "connecting"
        ? "connecting…"
        : `connection lost — retrying (${state.reason})`;
  const color =
    state.status === "connected" ? "bg-emerald-500" : state.status === "connecting" ? "bg-amber-500" : "bg-red-500";
  return (
    <span className="flex items-center gap-1 text-xs" data-testid="connection" role="status">
      <span className={`inline-block h-2 w-2 rounded-full ${color}`} aria-hidden="true" />
      {text}
    </span>
  );
}

export function SaveBadge({ state }: { state: SaveState | undefined }) {
  if (!state) return null;
  const text = {
    saved: "saved",
    dirty: "unsaved changes",
    saving: "saving…",
    conflict: "conflict",
    error: "save failed",
  }[state.status];
  return (
    <span
      className={`text-xs ${state.status === "conflict" || state.status === "error" ? "text-red-600" : "text-zinc-600 dark:text-zinc-400"}`}
      data-testid="save-state"
      role="status"
    >
      {state.status === "saved" ? savedRevisionText(state.version) : text}
    </span>
  );
}
