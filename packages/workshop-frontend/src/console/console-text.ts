/**
 * Run events as plain text, in one place: the lines a text-only console shows (the embed's), and the
 * lines two runs are compared by (a run record's "Run again"). Rich rendering is `ConsolePanel`'s.
 */

import type { LogLevel, RunEvent } from "@gadgets/workshop-shared";
// Not the package's index, which would bring the embed modules its first paint must not carry.
import { formatConsoleLine } from "@gadgets/workshop-shared/console-values";

export interface ConsoleTextLine {
  level: LogLevel;
  text: string;
}

/** An event as a console shows it in text, or undefined for events that are no line (status, end). */
export function consoleLineText(event: RunEvent): ConsoleTextLine | undefined {
  switch (event.type) {
    case "log":
      // console.group nesting shows as indentation, two spaces a level, as terminals show it.
      return { level: event.level, text: "  ".repeat(event.depth ?? 0) + formatConsoleLine(event.values) };
    case "error":
      return { level: "error", text: event.error.stack || `${event.error.name}: ${event.error.message}` };
    case "dropped":
      return { level: "debug", text: `${event.count} lines dropped` };
    case "trace":
      return { level: event.ok ? "info" : "warn", text: `⇄ ${event.capability}: ${event.summary} (${event.ms} ms)` };
    case "status":
    case "end":
      return undefined;
  }
}

/**
 * An event as it is compared with another run's: what the gadget wrote, without what differs from
 * run to run of the same code (times, stack positions, how many lines the stream dropped).
 */
export function comparableLine(event: RunEvent): string | undefined {
  switch (event.type) {
    case "log":
      return `${event.level}: ${formatConsoleLine(event.values)}`;
    case "error":
      return `uncaught: ${event.error.name}: ${event.error.message}`;
    case "trace":
      return `${event.capability}: ${event.summary}`;
    default:
      return undefined;
  }
}

/** The comparable lines of a run, in order. */
export function comparableLines(events: readonly RunEvent[]): string[] {
  return events.flatMap((event) => comparableLine(event) ?? []);
}
