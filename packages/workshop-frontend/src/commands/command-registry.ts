/**
 * Who can run each app command right now. The parts of the IDE that own an action register it while
 * they are on the page (the Workbench its run and publish, the Tests panel its test run), so the palette
 * and the keys reach an action without its state being lifted out of the part that owns it.
 */

import { Subscribable } from "../subscribable.ts";
import { APP_COMMANDS, type AppCommand, type AppCommandId } from "./app-commands.ts";

/** One of the choices a picking command offers (a draft to open, a template). */
export interface CommandChoice {
  id: string;
  label: string;
  detail?: string;
}

/** A command runs at once, or first offers choices and runs with the one picked. */
export type CommandHandler =
  | { kind: "run"; run(): void }
  | { kind: "pick"; placeholder: string; choices(): readonly CommandChoice[]; pick(id: string): void };

export class CommandRegistry extends Subscribable {
  // The latest registration wins, and removing it uncovers the one before (a panel shown twice).
  readonly #handlers = new Map<AppCommandId, CommandHandler[]>();
  /** Moves on each change: a snapshot React can compare. */
  version = 0;

  /** Makes `id` available until the returned function is called. */
  register(id: AppCommandId, handler: CommandHandler): () => void {
    const list = this.#handlers.get(id) ?? [];
    list.push(handler);
    this.#handlers.set(id, list);
    this.#changed();
    return () => {
      const at = list.indexOf(handler);
      if (at >= 0) list.splice(at, 1);
      if (list.length === 0) this.#handlers.delete(id);
      this.#changed();
    };
  }

  #changed(): void {
    this.version += 1;
    this.notify();
  }

  handler(id: AppCommandId): CommandHandler | undefined {
    return this.#handlers.get(id)?.at(-1);
  }

  available(id: AppCommandId): boolean {
    return this.handler(id) !== undefined;
  }

  /** The commands that can run now, in the table's order. */
  availableCommands(commands: readonly AppCommand[] = APP_COMMANDS): AppCommand[] {
    return commands.filter((command) => this.available(command.id));
  }

  /** Runs a command that runs at once; false when it is not available or first needs a choice. */
  invoke(id: AppCommandId): boolean {
    const handler = this.handler(id);
    if (handler?.kind !== "run") return false;
    handler.run();
    return true;
  }
}

/** The page's registry: the IDE is the one app on its page. */
export const appCommands = new CommandRegistry();
