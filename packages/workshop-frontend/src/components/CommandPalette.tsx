import { type KeyboardEvent, useMemo, useState } from "react";
import { type AppCommand, keyLabel, matchCommands } from "../commands/app-commands.ts";
import { appCommands, type CommandChoice, type CommandHandler } from "../commands/command-registry.ts";
import { useAvailableCommands } from "../hooks/use-app-commands.ts";
import { Dialog } from "./Dialog.tsx";

type Picking = Extract<CommandHandler, { kind: "pick" }>;
interface Entry {
  id: string;
  title: string;
  detail: string;
  keys?: string;
}

/**
 * The command palette (Ctrl/Cmd+K, Ctrl/Cmd+Shift+P): the app commands that can run now, filtered as
 * you type; a command that needs a choice (Switch draft…) lists its choices in the same box.
 */
export function CommandPalette({ onClose }: { onClose(then?: () => void): void }) {
  const available = useAvailableCommands();
  const [query, setQuery] = useState("");
  const [active, setActive] = useState(0);
  const [picking, setPicking] = useState<Picking>();

  const entries: Entry[] = useMemo(() => {
    if (picking) {
      const choices: readonly CommandChoice[] = picking.choices();
      return matchCommands(
        query,
        choices.map((choice) => ({ ...choice, title: choice.label, detail: choice.detail ?? "" })),
      );
    }
    return matchCommands(
      query,
      available.filter((command) => command.id !== "palette"),
    ).map((command: AppCommand) => ({
      id: command.id,
      title: command.title,
      detail: command.detail,
      keys: command.keys.map(keyLabel).join(" · ") || undefined,
    }));
  }, [available, picking, query]);
  const shown = Math.min(active, Math.max(0, entries.length - 1));

  const choose = (entry: Entry | undefined) => {
    if (!entry) return;
    if (picking) {
      onClose(() => picking.pick(entry.id));
      return;
    }
    const command = available.find((candidate) => candidate.id === entry.id);
    const handler = command && appCommands.handler(command.id);
    if (handler?.kind === "pick") {
      setPicking(handler);
      setQuery("");
      setActive(0);
      return;
    }
    // Run once the palette is gone, so focus the command moves stays where it put it.
    onClose(command && (() => appCommands.invoke(command.id)));
  };

  const onKey = (event: KeyboardEvent) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const step = event.key === "ArrowDown" ? 1 : -1;
      setActive((shown + step + entries.length) % Math.max(1, entries.length));
    } else if (event.key === "Enter" && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      choose(entries[shown]);
    }
  };

  const optionId = (index: number) => `palette-option-${index}`;
  return (
    <Dialog title="Command palette" onClose={onClose} testId="command-palette">
      <input
        data-autofocus
        type="text"
        role="combobox"
        aria-expanded="true"
        aria-controls="palette-options"
        aria-activedescendant={entries.length > 0 ? optionId(shown) : undefined}
        aria-label={picking ? picking.placeholder : "Type a command"}
        placeholder={picking ? picking.placeholder : "Type a command: run, publish, share…"}
        className="mb-2 min-h-8 w-full rounded border border-zinc-300 bg-transparent px-2 text-sm dark:border-zinc-700"
        value={query}
        onChange={(event) => {
          setQuery(event.target.value);
          setActive(0);
        }}
        onKeyDown={onKey}
      />
      {/* Options are chosen from the box (arrows, Enter) or by a click; they take no focus of their own. */}
      <div id="palette-options" role="listbox" aria-label="Commands" className="text-sm">
        {entries.length === 0 && <p className="px-2 py-1 text-zinc-600 dark:text-zinc-400">Nothing matches.</p>}
        {entries.map((entry, index) => (
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox above handles the keys
          <div
            key={entry.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === shown}
            className={`flex min-h-8 cursor-pointer items-center gap-2 rounded px-2 ${index === shown ? "bg-sky-100 dark:bg-sky-900" : ""}`}
            onMouseEnter={() => setActive(index)}
            onClick={() => choose(entry)}
          >
            <span className="font-medium">{entry.title}</span>
            <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">{entry.detail}</span>
            {entry.keys && (
              <kbd className="ml-auto shrink-0 rounded border border-zinc-300 px-1 font-mono text-xs dark:border-zinc-700">
                {entry.keys}
              </kbd>
            )}
          </div>
        ))}
      </div>
    </Dialog>
  );
}
