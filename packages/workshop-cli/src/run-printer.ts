/**
 * Shows a run in a terminal as it happens. For people (the default): console lines on stderr with their
 * level coloured and values pretty-printed, errors with stacks and a code excerpt pointing at the local
 * files, and the result on stdout (as JSON, so `gadgets run . > out.json` keeps just the result). For
 * tools (`--json`): every run event as one JSON line on stdout, ending with the `end` event. What the run
 * sent is data, never orders to the terminal: every string of it is escaped (terminal-text.ts) before it
 * is styled; JSON stays valid and means the same.
 */

import { join, relative } from "node:path";
import {
  consoleTable,
  type EventSource,
  type GadgetFile,
  type LogLevel,
  type RunErrorInfo,
  type RunEvent,
  type RunOutcome,
  type RunTimings,
} from "@gadgets/workshop-shared";
import { formatConsoleTable, formatConsoleValues } from "./console-format.ts";
import type { Painter } from "./terminal-style.ts";
import { escapeControls } from "./terminal-text.ts";

export interface OutputStreams {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

export interface RunPrinterOptions {
  streams: OutputStreams;
  json: boolean;
  /** Paints stderr text. */
  paint: Painter;
  /** The local folder the gadget's files came from, so stacks name local paths. */
  local?: { root: string; files: readonly GadgetFile[] };
}

const LEVEL_STYLE: Record<LogLevel, Parameters<Painter["paint"]>[0]> = {
  log: "reset",
  info: "cyan",
  warn: "yellow",
  error: "red",
  debug: "gray",
};

/** `index.ts:3:11` or `lib/util.ts:1:5` inside a stack or a message. */
const LOCATION = /([A-Za-z0-9_][\w./-]*):(\d+):(\d+)/g;
/**
 * Lines longer than this are not looked at for locations: a stack frame is far shorter, and the
 * pattern retries from every character of a long run of path characters (quadratic in the line).
 */
const MAX_LOCATION_LINE = 2000;
/** Characters of a source line shown around the failing column. */
const EXCERPT_WIDTH = 120;

export class RunPrinter {
  readonly #options: RunPrinterOptions;
  readonly #sources: Map<string, string>;
  /** Stacks already shown, so the outcome does not repeat the uncaught error it carries. */
  readonly #shownStacks = new Set<string>();
  #sawEnd = false;

  constructor(options: RunPrinterOptions) {
    this.#options = options;
    this.#sources = new Map(options.local?.files.map((file) => [file.path, file.content]) ?? []);
  }

  /** The gadget's file as a path from the current folder (`my-gadget/index.ts`), or as it came. */
  #localPath(file: string): string {
    const root = this.#options.local?.root;
    if (!root || !this.#sources.has(file)) return file;
    return relative(process.cwd(), join(root, file)) || file;
  }

  /** A stack or message with the gadget's locations pointing at local files. */
  localStack = (text: string): string =>
    text
      .split("\n")
      .map((line) =>
        line.length > MAX_LOCATION_LINE
          ? line
          : line.replace(LOCATION, (whole, file: string, row: string, column: string) =>
              this.#sources.has(file) ? `${this.#localPath(file)}:${row}:${column}` : whole,
            ),
      )
      .join("\n");

  /** Text from the run, pointed at local files and escaped, ready to be styled. */
  #shown(text: string): string {
    return escapeControls(this.localStack(text));
  }

  /**
   * `[agent] ` before a line an agent this run called wrote, as the IDE's console badges it, so its lines
   * are not taken for the gadget's own; the plain text too, for lining up what stands under it.
   */
  #from(from: EventSource | undefined): { painted: string; plain: string } {
    if (!from) return { painted: "", plain: "" };
    const label = `[${escapeControls(from.agent)}]`;
    return { painted: `${this.#options.paint.paint("blue", label)} `, plain: `${label} ` };
  }

  #err(text: string): void {
    this.#options.streams.stderr.write(`${text}\n`);
  }

  onEvent = (event: RunEvent): void => {
    const { paint, json, streams } = this.#options;
    if (json) {
      if (event.type === "end") this.#sawEnd = true;
      streams.stdout.write(`${escapeControls(JSON.stringify(event))}\n`);
      return;
    }
    const at = paint.paint("dim", `${String(event.t).padStart(6)}ms`);
    switch (event.type) {
      case "log": {
        // Grouped lines are indented two spaces per level, as Node's console.group does.
        const indent = "  ".repeat(event.depth ?? 0);
        const table = event.table && consoleTable(event.values[0], event.table.columns);
        const text = table
          ? formatConsoleTable(table).join("\n")
          : formatConsoleValues(event.values, paint.enabled, this.localStack);
        const level = paint.paint(LEVEL_STYLE[event.level], event.level.padEnd(5));
        const from = this.#from(event.from);
        // A table's lines stand under its first, past the time, level and agent.
        const under = table ? " ".repeat(`${String(event.t).padStart(6)}ms `.length + 6 + from.plain.length) : "";
        this.#err(`${at} ${level} ${from.painted}${indent}${text.replaceAll("\n", `\n${under}${indent}`)}`);
        return;
      }
      case "error":
        this.#err(
          `${at} ${paint.paint("red", event.uncaught ? "uncaught" : "error")} ${this.#from(event.from).painted}`.trimEnd(),
        );
        this.#printError(event.error);
        return;
      case "dropped":
        this.#err(
          `${at} ${paint.paint("yellow", `… ${event.count} console events dropped: the run passed its console limit.`)}`,
        );
        return;
      case "trace": {
        const mark = event.ok ? paint.paint("green", "✓") : paint.paint("red", "✗");
        this.#err(
          `${at} ${paint.paint("magenta", escapeControls(event.capability).padEnd(5))} ${this.#from(event.from).painted}${mark} ${escapeControls(event.summary)} (${event.ms} ms)`,
        );
        return;
      }
      case "status":
      case "end":
        return;
    }
  };

  #printError(error: RunErrorInfo): void {
    const { paint } = this.#options;
    this.#shownStacks.add(error.stack);
    const [head = "", ...frames] = this.#shown(error.stack).split("\n");
    this.#err(paint.paint(["red", "bold"], head));
    for (const frame of frames) this.#err(paint.paint("dim", frame));
    const first = error.frames.find((frame) => this.#sources.has(frame.file));
    if (first) this.#err(this.#excerpt(first.file, first.line, first.column));
  }

  /** The failing line of the gadget's own source, with a caret under the column. */
  #excerpt(file: string, line: number, column: number): string {
    const { paint } = this.#options;
    const text = this.#sources.get(file)?.split("\n")[line - 1];
    if (text === undefined) return "";
    const start = Math.max(0, column - 1 - EXCERPT_WIDTH / 2);
    const shown = (to: number) => escapeControls(text.slice(start, to).replaceAll("\t", " "));
    const gutter = `${line} | `;
    return [
      "",
      `${paint.paint("dim", `  ${gutter}`)}${shown(start + EXCERPT_WIDTH)}`,
      // The caret counts the escapes before the column as they are shown.
      `${" ".repeat(gutter.length + 2 + shown(Math.max(start, column - 1)).length)}${paint.paint("red", "^")}`,
      `${paint.paint("dim", `  at ${escapeControls(this.#localPath(file))}:${line}:${column}`)}`,
      "",
    ].join("\n");
  }

  /** Prints how the run ended: the result on stdout, or what went wrong. */
  finish(outcome: RunOutcome): void {
    const { paint, json, streams } = this.#options;
    if (json) {
      // Runs refused before they started (busy, invalid) may end without streaming an `end` event.
      if (!this.#sawEnd)
        streams.stdout.write(`${escapeControls(JSON.stringify({ type: "end", runId: outcome.runId, outcome }))}\n`);
      return;
    }
    if (outcome.status === "ok") {
      streams.stdout.write(`${escapeControls(JSON.stringify(outcome.result, null, 2))}\n`);
      this.#err(paint.paint("green", `✓ ok in ${timingText(outcome.timings)}`));
      return;
    }
    if (outcome.error && !this.#shownStacks.has(outcome.error.stack)) this.#printError(outcome.error);
    this.#err(paint.paint(["red", "bold"], `✗ ${outcome.kind}: ${this.#shown(outcome.message)}`));
  }
}

function timingText(timings: RunTimings): string {
  return `${timings.totalMs} ms (queue ${timings.queueMs} ms, build ${timings.buildMs} ms, run ${timings.runMs} ms)`;
}
