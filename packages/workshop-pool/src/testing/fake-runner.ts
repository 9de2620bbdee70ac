/**
 * A stand-in for a runner process in the pool's unit tests: no job reaches it (Workers send jobs to
 * runners, not the pool); a test writes the control lines a real runner would write as a run starts
 * and ends; memory, CPU, blocking and death are set by the test. No timing is involved: a test
 * waits for what the pool does to its fakes (`fakeRunners().until`), told by the fakes themselves.
 */

import { controlLine } from "../control-lines.ts";
import type { RunnerHandle, StartRunner } from "../supervisor/runner-handle.ts";
import { Conditions } from "./conditions.ts";

export class FakeRunner implements RunnerHandle {
  static #nextPid = 1000;
  readonly pid = FakeRunner.#nextPid++;
  readonly exited: Promise<number | string>;
  readonly closed: Promise<void>;
  rssBytes = 50 * 1024 * 1024;
  cpu = 0;
  /** A run on it spins: it does not answer pings. */
  blocked = false;
  killed = false;
  niceness = 0;
  readonly laneUrl = `fake://runner/${this.pid}`;
  readonly controlNonce = `nonce${this.pid}`;
  /** Its lane: the workspace it was opened for, until `close`. */
  assigned: { workspaceId: string; maxRuns: number } | undefined;
  laneClosed = false;
  /** When it dies, lines may still come until `closeOutput` (as a pipe is read after the process exits). */
  outputOpenOnDeath = false;
  /** Resolves `close` (a test settles it, as the end of the runs it waits for). */
  finishClose: () => void = () => {};
  #exit: (code: number | string) => void = () => {};
  #close: () => void = () => {};
  readonly #onLine: (line: string) => void;
  /** Told whenever the pool does something to this runner (a job, a lane opened or closed, a kill). */
  readonly #changed: () => void;

  constructor(onLine: (line: string) => void, changed: () => void = () => {}) {
    this.#onLine = onLine;
    this.#changed = changed;
    this.exited = new Promise((resolve) => {
      this.#exit = resolve;
    });
    this.closed = new Promise((resolve) => {
      this.#close = resolve;
    });
  }

  alive(): boolean {
    return !this.killed;
  }

  ping(): Promise<unknown> {
    if (this.killed) return Promise.reject(new Error("gone"));
    return this.blocked ? new Promise(() => {}) : Promise.resolve("pong");
  }

  assign(workspaceId: string, maxRuns: number): Promise<void> {
    if (this.killed) return Promise.reject(new Error("gone"));
    this.assigned = { workspaceId, maxRuns };
    this.#changed();
    return Promise.resolve();
  }

  close(): Promise<void> {
    this.laneClosed = true;
    this.#changed();
    if (this.killed) return Promise.reject(new Error("gone"));
    return new Promise((resolve) => {
      this.finishClose = resolve;
    });
  }

  /** Writes a control line, as the real runner does when a run starts or ends. */
  control(runId: string, kind: "start" | "end", data: (string | number)[]): void {
    this.#onLine(controlLine(this.controlNonce, runId, kind, data));
  }

  rss(): number | undefined {
    return this.killed ? undefined : this.rssBytes;
  }

  cpuMs(): number | undefined {
    return this.killed ? undefined : this.cpu;
  }

  setNiceness(niceness: number): boolean {
    this.niceness = niceness;
    return true;
  }

  /** Writes a line to its stdout. */
  line(text: string): void {
    this.#onLine(text);
  }

  kill(): void {
    this.die("SIGKILL");
  }

  /**
   * Dies as if from outside (a crash, a kill -9): its calls fail. Its output is read to the end at
   * once, unless `outputOpen`: then lines may still come until `closeOutput`.
   */
  die(exit: number | string, options: { outputOpen?: boolean } = { outputOpen: this.outputOpenOnDeath }): void {
    if (this.killed) return;
    this.killed = true;
    this.#exit(exit);
    if (!options.outputOpen) this.closeOutput();
    this.#changed();
  }

  /** The last of its output has been read. */
  closeOutput(): void {
    void this.exited.then(() => this.#close());
  }
}

/**
 * A StartRunner that makes fake runners and keeps every one it made, newest last; `until` waits for a
 * state the pool reaches by acting on them (checked again whenever one is started, has its lane opened
 * or closed, or dies), and any other event a test reports with `changed`.
 */
export function fakeRunners() {
  const all: FakeRunner[] = [];
  const conditions = new Conditions();
  const changed = () => conditions.changed();
  const start: StartRunner = async (onLine) => {
    const runner = new FakeRunner(onLine, changed);
    all.push(runner);
    changed();
    return runner;
  };
  const until = <T>(check: () => T | undefined | null | false) => conditions.until(check);
  return {
    all,
    alive: () => all.filter((runner) => !runner.killed),
    start,
    until,
    changed,
    /** The runner a lease is on. */
    runnerAt: (url: string) => all.find((runner) => runner.laneUrl === url),
    /** Once `count` runners have been started in all (replacements included). */
    started: (count: number) => until(() => all.length >= count),
  };
}
