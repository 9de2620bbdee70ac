import { Dialog } from "./Dialog.tsx";

/** The shortcuts people look for first; the full list is in the command palette (F1). */
export const SHORTCUTS: readonly { keys: string; what: string }[] = [
  { keys: "Ctrl/Cmd+Enter", what: "Run the gadget with the payload" },
  { keys: "Ctrl/Cmd+S", what: "Format the file and save" },
  { keys: "F1", what: "Command palette: every editor command" },
  { keys: "Ctrl+Space", what: "Suggestions (the gadget contract, env, your other files)" },
  { keys: "Ctrl/Cmd+Shift+Space", what: "Parameter hints" },
  { keys: "Ctrl/Cmd+F · Ctrl/Cmd+H", what: "Find · replace" },
  { keys: "F12 · Alt+F12", what: "Go to definition · peek it (across the gadget's files)" },
  { keys: "Shift+F12", what: "Find all references" },
  { keys: "F2", what: "Rename a symbol everywhere" },
  { keys: "Shift+Alt+F", what: "Format the document" },
  { keys: "Ctrl/Cmd+D · Alt+Click", what: "Add a cursor at the next match · at the click" },
  { keys: "Ctrl/Cmd+Shift+[ · ]", what: "Fold · unfold the block" },
  { keys: "Ctrl/Cmd+Shift+\\", what: "Jump to the matching bracket" },
  { keys: "Ctrl/Cmd+G", what: "Go to line" },
  { keys: "?", what: "This sheet (outside the editor)" },
];

export function ShortcutSheet({ onClose }: { onClose(): void }) {
  return (
    <Dialog title="Keyboard shortcuts" onClose={onClose} testId="shortcut-sheet">
      <table className="w-full text-sm">
        <tbody>
          {SHORTCUTS.map((shortcut) => (
            <tr key={shortcut.keys} className="border-b border-zinc-100 last:border-0 dark:border-zinc-800">
              <td className="whitespace-nowrap py-1 pr-4">
                <kbd className="rounded border border-zinc-300 bg-zinc-50 px-1 font-mono text-xs dark:border-zinc-700 dark:bg-zinc-800">
                  {shortcut.keys}
                </kbd>
              </td>
              <td className="py-1 text-zinc-600 dark:text-zinc-300">{shortcut.what}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Dialog>
  );
}
