import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import { type AppCommandId, bindingForKey } from "../commands/app-commands.ts";
import { appCommands, type CommandHandler } from "../commands/command-registry.ts";
import { isTypingTarget } from "../keyboard/shortcuts.ts";

/**
 * Makes a command available while the component is on the page and `handler` is given (leave it out
 * while the command cannot run: Cancel run when nothing runs). The latest handler is called, without
 * registering again on every render.
 */
export function useCommand(id: AppCommandId, handler: CommandHandler | undefined): void {
  const latest = useRef(handler);
  latest.current = handler;
  const kind = handler?.kind;
  useEffect(() => {
    if (kind === undefined) return;
    const current = (): CommandHandler | undefined => latest.current;
    return appCommands.register(
      id,
      kind === "run"
        ? { kind, run: () => (current() as Extract<CommandHandler, { kind: "run" }> | undefined)?.run() }
        : {
            kind,
            get placeholder() {
              const now = current();
              return now?.kind === "pick" ? now.placeholder : "";
            },
            choices: () => {
              const now = current();
              return now?.kind === "pick" ? now.choices() : [];
            },
            pick: (choice) => {
              const now = current();
              if (now?.kind === "pick") now.pick(choice);
            },
          },
    );
  }, [id, kind]);
}

/** A command that runs at once, as `useCommand` takes it; undefined while it cannot run. */
export const runs = (run: (() => void) | undefined): CommandHandler | undefined =>
  run ? { kind: "run", run } : undefined;

/** The commands available now; re-renders when that changes. */
export function useAvailableCommands() {
  const version = useSyncExternalStore(appCommands.subscribe, () => appCommands.version);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the registry moves `version` on every change
  return useMemo(() => appCommands.availableCommands(), [version]);
}

/** Whether a modal dialog is open: it owns Escape. */
const dialogOpen = () => document.querySelector('[aria-modal="true"]') !== null;

/**
 * The page-wide keys of the command table, dispatched to whoever registered each command. An `always`
 * key is taken before the editor sees it (Ctrl+K would start one of its chords); the others after, and
 * only when nothing took them first (Escape closing an editor widget or a dialog does not cancel a run).
 */
export function useAppKeys(): void {
  useEffect(() => {
    const listen = (phase: "capture" | "bubble") => (event: KeyboardEvent) => {
      const context = {
        typing: isTypingTarget(event.target),
        running: appCommands.available("cancel-run"),
        taken: event.defaultPrevented || dialogOpen(),
      };
      const found = bindingForKey(event, context);
      if (!found || (found.binding.when === "always") !== (phase === "capture")) return;
      if (!appCommands.available(found.command)) return;
      event.preventDefault();
      event.stopPropagation();
      if (found.command !== "palette" && appCommands.handler(found.command)?.kind === "pick") return;
      appCommands.invoke(found.command);
    };
    const capture = listen("capture");
    const bubble = listen("bubble");
    window.addEventListener("keydown", capture, true);
    window.addEventListener("keydown", bubble);
    return () => {
      window.removeEventListener("keydown", capture, true);
      window.removeEventListener("keydown", bubble);
    };
  }, []);
}
