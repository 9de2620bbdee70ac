/**
 * Where a key press lands. The IDE's keys themselves are the command table's (`commands/app-commands.ts`).
 */

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
