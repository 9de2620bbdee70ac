import { shortcutRows } from "../commands/app-commands.ts";
import { Dialog } from "./Dialog.tsx";

/** Written from the command table, so it lists every key the page handles, and the editor's own. */
const SHORTCUTS = shortcutRows();

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
