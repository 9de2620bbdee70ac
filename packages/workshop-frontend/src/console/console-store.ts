/**
 * The console panel's entries: runs separated, levels filterable, groups foldable, capped so a
 * 10,000-line flood stays smooth — past the cap the oldest lines are dropped and counted.
 * Framework-free; React subscribes.
 */

import type { EventSource, LogLayout, LogLevel, RunErrorInfo, RunEvent, RunOutcome } from "@gadgets/workshop-shared";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { Subscribable } from "../subscribable.ts";
import { withoutClosedGroups } from "./console-groups.ts";

export type ConsoleEntry =
  | { kind: "run-start"; id: number; runId: string; name: string; at: number }
  | ({
      kind: "log";
      id: number;
      runId: string;
      level: LogLevel;
      values: EncodedValue[];
      t: number;
      from?: EventSource;
    } & LogLayout)
  | { kind: "error"; id: number; runId: string; error: RunErrorInfo; t: number; from?: EventSource }
  | { kind: "dropped"; id: number; runId: string; count: number; t: number }
  | {
      kind: "trace";
      id: number;
      runId: string;
      capability: string;
      summary: string;
      ok: boolean;
      ms: number;
      t: number;
      from?: EventSource;
    }
  | { kind: "end"; id: number; runId: string; outcome: RunOutcome; t: number };

export type LevelFilter = Record<LogLevel | "error-events" | "trace", boolean>;

/** Lines kept in the panel; older ones are dropped and counted. */
export const MAX_CONSOLE_ENTRIES = 5000;

export const ALL_LEVELS: LevelFilter = {
  log: true,
  info: true,
  warn: true,
  error: true,
  debug: true,
  "error-events": true,
  trace: true,
};

export class ConsoleStore extends Subscribable {
  #entries: ConsoleEntry[] = [];
  #droppedByCap = 0;
  #nextId = 1;
  #filter: LevelFilter = { ...ALL_LEVELS };
  #visible: ConsoleEntry[] | undefined;
  #scope: ((entry: ConsoleEntry) => boolean) | undefined;
  /** Group labels the reader opened or closed, against how they started (`groupCollapsed` starts closed). */
  #toggled = new Set<number>();
  #notifyScheduled = false;

  /** Lines dropped because the panel was full. */
  get droppedByCap(): number {
    return this.#droppedByCap;
  }

  get filter(): LevelFilter {
    return this.#filter;
  }

  setFilter(filter: LevelFilter): void {
    this.#filter = filter;
    this.#changed(true);
  }

  get scoped(): boolean {
    return this.#scope !== undefined;
  }

  /** Narrows the panel to the entries of one part of a run (a trace span); undefined shows all again. */
  setScope(scope: ((entry: ConsoleEntry) => boolean) | undefined): void {
    this.#scope = scope;
    this.#changed(true);
  }

  /** Whether a group's lines are hidden under its label. */
  isGroupClosed = (entry: ConsoleEntry & { kind: "log" }): boolean =>
    (entry.group === "collapsed") !== this.#toggled.has(entry.id);

  /** Opens a closed group or closes an open one. */
  toggleGroup(id: number): void {
    if (!this.#toggled.delete(id)) this.#toggled.add(id);
    this.#changed(true);
  }

  /** Entries that pass the filter and no closed group hides (cached until the next change). */
  visible(): ConsoleEntry[] {
    this.#visible ??= withoutClosedGroups(this.#entries, this.isGroupClosed).filter((entry) => {
      if (this.#scope && !this.#scope(entry)) return false;
      if (entry.kind === "log") return this.#filter[entry.level];
      if (entry.kind === "error") return this.#filter["error-events"];
      if (entry.kind === "trace") return this.#filter.trace;
      return true;
    });
    return this.#visible;
  }

  all(): readonly ConsoleEntry[] {
    return this.#entries;
  }

  startRun(runId: string, name: string): void {
    this.#push({ kind: "run-start", id: this.#nextId++, runId, name, at: Date.now() });
  }

  add(event: RunEvent): void {
    const id = this.#nextId++;
    switch (event.type) {
      case "log":
        this.#push({
          kind: "log",
          id,
          runId: event.runId,
          level: event.level,
          values: event.values,
          t: event.t,
          ...(event.from ? { from: event.from } : {}),
          ...(event.depth ? { depth: event.depth } : {}),
          ...(event.group ? { group: event.group } : {}),
          ...(event.table ? { table: event.table } : {}),
        });
        break;
      case "error":
        this.#push({
          kind: "error",
          id,
          runId: event.runId,
          error: event.error,
          t: event.t,
          ...(event.from ? { from: event.from } : {}),
        });
        break;
      case "dropped":
        this.#push({ kind: "dropped", id, runId: event.runId, count: event.count, t: event.t });
        break;
      case "end":
        this.#push({ kind: "end", id, runId: event.runId, outcome: event.outcome, t: event.t });
        break;
      case "trace":
        this.#push({
          kind: "trace",
          id,
          runId: event.runId,
          capability: event.capability,
          summary: event.summary,
          ok: event.ok,
          ms: event.ms,
          t: event.t,
          ...(event.from ? { from: event.from } : {}),
        });
        break;
      case "status":
        break;
    }
  }

  clear(): void {
    this.#entries = [];
    this.#scope = undefined;
    this.#toggled.clear();
    this.#droppedByCap = 0;
    this.#changed(true);
  }

  #push(entry: ConsoleEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > MAX_CONSOLE_ENTRIES) {
      const excess = this.#entries.length - MAX_CONSOLE_ENTRIES;
      this.#entries.splice(0, excess);
      this.#droppedByCap += excess;
    }
    this.#changed(false);
  }

  /** Floods arrive faster than frames: listeners hear of changes at most once per frame. */
  #changed(now: boolean): void {
    this.#visible = undefined;
    if (now) {
      this.notify();
      return;
    }
    if (this.#notifyScheduled) return;
    this.#notifyScheduled = true;
    const notify = () => {
      this.#notifyScheduled = false;
      this.notify();
    };
    if (typeof requestAnimationFrame === "function" && typeof document !== "undefined" && !document.hidden)
      requestAnimationFrame(notify);
    else setTimeout(notify, 0);
  }
}
