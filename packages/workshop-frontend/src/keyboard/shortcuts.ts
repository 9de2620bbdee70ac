/**
 * The IDE's page-wide shortcuts: Ctrl/Cmd+Enter runs and Ctrl/Cmd+S saves from anywhere on the page,
 * not only inside the editor; `?` opens the shortcut sheet unless the key lands in something that
 * takes text, where it is a character.
 */

export type Shortcut = "run" | "save" | "shortcut-sheet";

/** The shortcut a key press is, if any. `typing`: the press lands in something that takes text. */
export function shortcutOf(
  press: { key: string; ctrlKey: boolean; metaKey: boolean },
  typing: boolean,
): Shortcut | undefined {
  const modified = press.ctrlKey || press.metaKey;
  if (press.key === "?" && !modified) return typing ? undefined : "shortcut-sheet";
  if (!modified) return undefined;
  if (press.key === "Enter") return "run";
  if (press.key === "s") return "save";
  return undefined;
}

/** Whether a key press lands in something that takes text: a field, an editable element, the code editor. */
export function isTypingTarget(target: EventTarget | null): boolean {
  return (
    typeof HTMLElement !== "undefined" &&
    target instanceof HTMLElement &&
    (target.isContentEditable ||
      /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) ||
      target.closest(".monaco-editor") !== null)
  );
}
