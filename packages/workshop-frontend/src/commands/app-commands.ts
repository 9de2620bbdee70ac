/**
 * The IDE's app commands, in one table: the command palette lists them, the page-wide key listener
 * dispatches their keys, and the shortcut sheet is written from them (with the editor's own keys), so a
 * key never works without being listed, nor is listed without working.
 */

export type AppCommandId =
  | "run"
  | "run-tests"
  | "cancel-run"
  | "save"
  | "publish"
  | "share"
  | "share-run"
  | "new-draft"
  | "switch-draft"
  | "toggle-theme"
  | "catalog"
  | "help"
  | "shortcuts"
  | "palette"
  | "editor-commands";

/**
 * A key that runs a command. `mod` is Ctrl, or Cmd on a Mac. `when`: `always` (even while typing: these
 * are never characters), `not-typing` (a character in a field or the editor), `running` (only while a run
 * goes and nothing else took the key: an open widget, a dialog). `editor`: the editor handles it itself;
 * listed, not dispatched.
 */
export interface KeyBinding {
  key: string;
  mod?: boolean;
  shift?: boolean;
  when: "always" | "not-typing" | "running" | "editor";
}

export interface AppCommand {
  id: AppCommandId;
  title: string;
  /** What it does, for the palette and the sheet. */
  detail: string;
  /** Other words people look for it by. */
  keywords?: readonly string[];
  keys: readonly KeyBinding[];
}

export const APP_COMMANDS: readonly AppCommand[] = [
  {
    id: "run",
    title: "Run",
    detail: "Run the gadget with the payload",
    keywords: ["execute", "start"],
    keys: [{ key: "Enter", mod: true, when: "always" }],
  },
  {
    id: "run-tests",
    title: "Run tests",
    detail: "Run the draft's test cases (gadget.tests.json)",
    keywords: ["test"],
    keys: [{ key: "Enter", mod: true, shift: true, when: "always" }],
  },
  {
    id: "cancel-run",
    title: "Cancel run",
    detail: "Stop the run that is going",
    keywords: ["stop", "abort"],
    // Ctrl+. is the editor's quick fix; Escape means "cancel" everywhere else, so it does only while a run goes.
    keys: [{ key: "Escape", when: "running" }],
  },
  {
    id: "save",
    title: "Format and save",
    detail: "Format the file with Prettier and save",
    keys: [{ key: "s", mod: true, when: "always" }],
  },
  { id: "publish", title: "Publish", detail: "Publish as an agent your backend can call", keys: [] },
  { id: "share", title: "Share", detail: "Share a read-only link and an embed snippet", keys: [] },
  { id: "share-run", title: "Share run", detail: "Share the last run's record as a link", keys: [] },
  { id: "new-draft", title: "New draft…", detail: "Start a draft from a template", keys: [] },
  { id: "switch-draft", title: "Switch draft…", detail: "Open another draft", keywords: ["open"], keys: [] },
  { id: "toggle-theme", title: "Toggle theme", detail: "Switch between light and dark", keywords: ["dark"], keys: [] },
  { id: "catalog", title: "Catalog", detail: "Published agents and their docs", keywords: ["agents"], keys: [] },
  { id: "help", title: "Help", detail: "The gadget contract and capabilities", keywords: ["docs"], keys: [] },
  {
    id: "shortcuts",
    title: "Keyboard shortcuts",
    detail: "This list of keys",
    keywords: ["keys"],
    keys: [{ key: "?", when: "not-typing" }],
  },
  {
    id: "palette",
    title: "Command palette",
    detail: "Every app command, from anywhere on the page, the editor too",
    // Ctrl/Cmd+K in the editor too, as in web IDEs: people press it with the cursor in the code. The
    // editor's own Ctrl/Cmd+K chords are then found by name under F1 (EDITOR_KEYS says so).
    keys: [
      { key: "k", mod: true, when: "always" },
      { key: "p", mod: true, shift: true, when: "always" },
    ],
  },
  {
    id: "editor-commands",
    title: "Editor commands…",
    detail: "Every command of the code editor",
    // What VS Code puts behind Ctrl/Cmd+K chords, which the palette's key takes here.
    keywords: ["hover", "fold", "comment"],
    keys: [{ key: "F1", when: "editor" }],
  },
];

/** Keys the code editor owns: on the sheet, never dispatched by the page. */
export const EDITOR_KEYS: readonly { keys: string; what: string }[] = [
  { keys: "Ctrl+Space", what: "Suggestions (the gadget contract, env, your other files)" },
  { keys: "Ctrl/Cmd+Shift+Space", what: "Parameter hints" },
  { keys: "Ctrl/Cmd+.", what: "Quick fix" },
  { keys: "Ctrl/Cmd+F · Ctrl/Cmd+H", what: "Find · replace" },
  { keys: "F12 · Alt+F12", what: "Go to definition · peek it (across the gadget's files)" },
  { keys: "Shift+F12", what: "Find all references" },
  { keys: "F2", what: "Rename a symbol everywhere" },
  { keys: "Shift+Alt+F", what: "Format the document" },
  { keys: "Ctrl/Cmd+D · Alt+Click", what: "Add a cursor at the next match · at the click" },
  { keys: "Ctrl/Cmd+Shift+[ · ]", what: "Fold · unfold the block" },
  { keys: "Ctrl/Cmd+Shift+\\", what: "Jump to the matching bracket" },
  { keys: "Ctrl/Cmd+G", what: "Go to line" },
  {
    keys: "F1, then its name",
    what: "What VS Code binds to Ctrl/Cmd+K chords (Show or Focus Hover, Fold All, Format Selection…): Ctrl/Cmd+K opens the command palette here",
  },
];

/** A binding as people read it: `Ctrl/Cmd+Shift+Enter`, `?`. */
export function keyLabel(binding: KeyBinding): string {
  const key = binding.key.length === 1 ? binding.key.toUpperCase() : binding.key;
  return `${binding.mod ? "Ctrl/Cmd+" : ""}${binding.shift ? "Shift+" : ""}${key}`;
}

const WHEN_NOTE: Partial<Record<KeyBinding["when"], string>> = {
  running: " (while a run goes)",
  "not-typing": " (outside the editor and fields)",
};

/** The shortcut sheet's rows: every app command with keys, then the editor's keys. */
export function shortcutRows(commands: readonly AppCommand[] = APP_COMMANDS): { keys: string; what: string }[] {
  const app = commands
    .filter((command) => command.keys.length > 0)
    .map((command) => ({
      keys: command.keys.map(keyLabel).join(" · "),
      what: `${command.title}: ${command.detail}${WHEN_NOTE[command.keys[0]?.when ?? "always"] ?? ""}`,
    }));
  return [...app, ...EDITOR_KEYS];
}

/** A key press, as `KeyboardEvent` has it. */
export interface KeyPress {
  key: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

/**
 * Where the press lands: `typing` in something that takes text; `running` a run goes; `taken` something
 * already handled the key (an editor widget closing) or a dialog is open, which owns Escape.
 */
export interface PressContext {
  typing: boolean;
  running: boolean;
  taken: boolean;
}

/** A printable key whose Shift is part of the character (`?` is Shift+/ on many layouts). */
const shiftInCharacter = (key: string) => key.length === 1 && !/[a-z0-9]/i.test(key);

/**
 * The command a key press runs, if any, and the binding it matched: an `always` binding is taken before
 * the editor sees the key (so its chords never swallow it), the others only when nothing else took it.
 */
export function bindingForKey(
  press: KeyPress,
  context: PressContext,
  commands: readonly AppCommand[] = APP_COMMANDS,
): { command: AppCommandId; binding: KeyBinding } | undefined {
  const mod = press.ctrlKey || press.metaKey;
  for (const command of commands) {
    for (const binding of command.keys) {
      if (binding.when === "editor" || press.altKey) continue;
      if (press.key.toLowerCase() !== binding.key.toLowerCase()) continue;
      if (mod !== (binding.mod ?? false)) continue;
      if (!shiftInCharacter(binding.key) && press.shiftKey !== (binding.shift ?? false)) continue;
      if (binding.when === "not-typing" && context.typing) continue;
      if (binding.when === "running" && (!context.running || context.taken)) continue;
      return { command: command.id, binding };
    }
  }
  return undefined;
}

/** The command a key press runs, if any. */
export function commandForKey(
  press: KeyPress,
  context: PressContext,
  commands: readonly AppCommand[] = APP_COMMANDS,
): AppCommandId | undefined {
  return bindingForKey(press, context, commands)?.command;
}

/**
 * The commands matching what was typed into the palette, best first: the whole title, then a title
 * starting with it, a word starting with it, the text anywhere in title, keywords or detail. A dozen
 * commands need no fuzzy-search library; these four ranks are what people expect of a palette.
 */
export function matchCommands<T extends Pick<AppCommand, "title" | "detail" | "keywords">>(
  query: string,
  commands: readonly T[],
): T[] {
  const wanted = query.trim().toLowerCase();
  if (wanted === "") return [...commands];
  const rank = (command: T): number => {
    const title = command.title.toLowerCase().replace(/…$/, "");
    if (title === wanted) return 4;
    if (title.startsWith(wanted)) return 3;
    const words = [...title.split(/\s+/), ...(command.keywords ?? [])];
    if (words.some((word) => word.startsWith(wanted))) return 2;
    return title.includes(wanted) || command.detail.toLowerCase().includes(wanted) ? 1 : 0;
  };
  return commands
    .map((command, index) => ({ command, index, score: rank(command) }))
    .filter((entry) => entry.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.command);
}
