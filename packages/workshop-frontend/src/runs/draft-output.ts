/**
 * Each draft's output, kept apart: the run it shows (live, or recorded and opened from its Runs), that
 * run's record (its trace), the draft's console and its test results. A run keeps streaming into its
 * own draft's output while another draft is on screen, so no draft ever shows another's output.
 * Framework-free; React reads `view` of the open draft's output.
 */

import type {
  RunEvent,
  RunOutcome,
  RunRecord,
  TestCaseResult,
  TestRunSummary,
  TestStatus,
} from "@gadgets/workshop-shared";
import { ConsoleStore } from "../console/console-store.ts";
import { RunFeed, showRecordedRun } from "../console/run-feed.ts";
import { errorMessage } from "../error-message.ts";
import { Subscribable } from "../subscribable.ts";
import { consoleName } from "./run-history.ts";
import { type RunState, trackRun } from "./run-state.ts";

/** The record of the run shown: read once the run ended (the trace is in it), or given when opened. */
export type ShownRecord =
  | { status: "none" }
  | { status: "loading"; runId: string }
  | { status: "ok"; record: RunRecord }
  | { status: "failed"; runId: string; message: string };

export type TestsState =
  | { status: "idle" }
  | { status: "running" }
  | { status: "done"; summary: TestRunSummary }
  | { status: "failed"; message: string };

export interface TestsView {
  state: TestsState;
  /** This session's results of the latest test run, by case name, as they stream in. */
  results: ReadonlyMap<string, TestCaseResult>;
  /** The stored outcome of the draft's last test run (any session's), once read. */
  last: TestStatus | null;
}

/** What a page shows of one draft's output; a new object on every change. */
export interface DraftOutputView {
  run: RunState;
  record: ShownRecord;
  /** The shown run came from the draft's stored records (opened, or restored on load), not run now. */
  recorded: boolean;
  tests: TestsView;
}

/** What the outputs read from the Workshop. */
export interface OutputSource {
  getRun(runId: string): Promise<RunRecord>;
  /** The draft's latest stored run, if it has any. */
  lastRun(draftId: string): Promise<RunRecord | undefined>;
  lastTestStatus(draftId: string): Promise<TestStatus | null>;
}

/** One run as the output takes it: save the draft first (an error message when it could not), then start. */
export interface RunRequest {
  name: string;
  /** Whether the draft is saved already (no "saving" phase is shown then). */
  saved: boolean;
  save(): Promise<string | undefined>;
  start(onEvent: (event: RunEvent) => void): Promise<RunOutcome>;
  /** When the person asked (performance.now()), for the status bar's clock. */
  startedAt: number;
}

export interface TestsRequest {
  save(): Promise<string | undefined>;
  start(onResult: (result: TestCaseResult) => void): Promise<TestRunSummary>;
}

const IDLE: RunState = { status: "idle" };
const NO_RECORD: ShownRecord = { status: "none" };

export class DraftOutput extends Subscribable {
  /** The draft's console: its runs of this session, and the recorded runs opened in it. */
  readonly console = new ConsoleStore();
  #view: DraftOutputView = {
    run: IDLE,
    record: NO_RECORD,
    recorded: false,
    tests: { state: { status: "idle" }, results: new Map(), last: null },
  };
  /** The live run, while one goes: a newer one (or an interruption) makes its late reports moot. */
  #live: { feed: RunFeed } | undefined;
  #testing = false;
  /** Bumped by every run started or record shown, so an answer that comes late never replaces a newer one. */
  #turn = 0;

  constructor(
    readonly draftId: string,
    private readonly source: OutputSource,
  ) {
    super();
  }

  get view(): DraftOutputView {
    return this.#view;
  }

  /** Whether a run of this draft is going now. */
  get running(): boolean {
    return this.#live !== undefined;
  }

  /** The live run's id, once its first event came (what Cancel names). */
  get liveRunId(): string | undefined {
    return this.#live?.feed.runId;
  }

  /**
   * The live run's id as soon as the Workshop names it: a Cancel pressed while the run is still saving or
   * queued waits for it instead of being lost. Undefined when no run goes, or it ends unnamed.
   */
  liveRunIdSoon(): Promise<string | undefined> {
    if (!this.#live || this.liveRunId) return Promise.resolve(this.liveRunId);
    return new Promise((resolve) => {
      const stop = this.subscribe(() => {
        if (this.#live && !this.liveRunId) return;
        stop();
        resolve(this.liveRunId);
      });
    });
  }

  /** Runs the draft (one run at a time per draft; a second ask while one goes is ignored). */
  async run(request: RunRequest): Promise<void> {
    if (this.#live) return;
    const live = { feed: new RunFeed(this.console, request.name) };
    this.#live = live;
    const turn = ++this.#turn;
    const { startedAt } = request;
    const fresh = { record: NO_RECORD, recorded: false } as const;
    // Already saved: the request goes out first and the page re-renders after (trackRun's "queued").
    if (!request.saved) this.#update({ run: { status: "running", startedAt, phase: "saving" }, ...fresh });
    const mine = () => this.#live === live;
    try {
      const failed = await request.save();
      if (failed) {
        if (mine()) this.#update({ run: { status: "failed", message: failed }, ...fresh });
        return;
      }
      const outcome = await trackRun(request.start, live.feed, {
        startedAt,
        onState: (state) => {
          if (mine()) this.#update({ run: state, ...fresh });
        },
      });
      if (outcome && mine()) this.#readRecord(outcome.runId, turn);
    } catch (error) {
      if (mine()) this.#update({ run: { status: "failed", message: errorMessage(error) }, ...fresh });
    } finally {
      if (mine()) this.#live = undefined;
    }
  }

  /** The connection broke: a live run's outcome is unknown, and what it still reports is not trusted. */
  interrupt(reason: string): void {
    if (!this.#live) return;
    this.#live = undefined;
    this.#update({
      run: {
        status: "interrupted",
        reason: `The connection was lost while the gadget ran (${reason}). The run's outcome is unknown; run it again once reconnected.`,
      },
    });
  }

  /**
   * Shows a stored run of this draft as its output: outcome, timings, trace, and its console lines under
   * a "recorded" header. Refused (false) while a run goes, so the live run keeps the panel.
   */
  showRecord(record: RunRecord): boolean {
    if (this.#live) return false;
    this.#turn++;
    // A span filter left from another run's trace would hide this one's lines.
    this.console.setScope(undefined);
    showRecordedRun(this.console, { ...record, name: consoleName(record) });
    this.#update({
      run: { status: "done", outcome: record.outcome },
      record: { status: "ok", record },
      recorded: true,
    });
    return true;
  }

  /** Shows the draft's latest stored run, unless something was run or shown meanwhile. */
  async restore(): Promise<void> {
    const turn = this.#turn;
    try {
      const record = await this.source.lastRun(this.draftId);
      if (record && turn === this.#turn && !this.#live) this.showRecord(record);
    } catch (error) {
      // Nothing to restore is an empty output, as for a new draft; say why in the console's stead.
      console.warn("Could not read the draft's last run:", errorMessage(error));
    }
  }

  /** Runs the draft's test cases (after saving), the results streaming into `tests`. */
  async runTests(request: TestsRequest): Promise<void> {
    if (this.#testing) return;
    this.#testing = true;
    this.#updateTests({ state: { status: "running" }, results: new Map() });
    try {
      const failed = await request.save();
      if (failed) return this.#updateTests({ state: { status: "failed", message: failed } });
      const summary = await request.start((result) =>
        this.#updateTests({ results: new Map(this.#view.tests.results).set(result.name, result) }),
      );
      this.#updateTests({ state: { status: "done", summary } });
      await this.readTestStatus();
    } catch (error) {
      this.#updateTests({ state: { status: "failed", message: errorMessage(error) } });
    } finally {
      this.#testing = false;
    }
  }

  /** Reads the stored outcome of the draft's last test run (shown for cases not run in this session). */
  async readTestStatus(): Promise<void> {
    try {
      this.#updateTests({ last: await this.source.lastTestStatus(this.draftId) });
    } catch (error) {
      console.warn("Could not read the draft's last test status:", errorMessage(error));
    }
  }

  async #readRecord(runId: string, turn: number): Promise<void> {
    this.#update({ record: { status: "loading", runId } });
    try {
      const record = await this.source.getRun(runId);
      if (turn === this.#turn) this.#update({ record: { status: "ok", record } });
    } catch (error) {
      if (turn === this.#turn) this.#update({ record: { status: "failed", runId, message: errorMessage(error) } });
    }
  }

  #update(change: Partial<Omit<DraftOutputView, "tests">>): void {
    this.#view = { ...this.#view, ...change };
    this.notify();
  }

  #updateTests(change: Partial<TestsView>): void {
    this.#view = { ...this.#view, tests: { ...this.#view.tests, ...change } };
    this.notify();
  }
}

/** Every draft's output this page has opened, made on first use (and then restored from the records). */
export class DraftOutputs {
  readonly #outputs = new Map<string, DraftOutput>();
  /** What shows while no draft is open: always empty, never restored. */
  readonly #none: DraftOutput;

  constructor(private readonly source: OutputSource) {
    this.#none = new DraftOutput("", source);
  }

  of(draftId: string | undefined): DraftOutput {
    if (draftId === undefined) return this.#none;
    let output = this.#outputs.get(draftId);
    if (!output) {
      output = new DraftOutput(draftId, this.source);
      this.#outputs.set(draftId, output);
      void output.restore();
      void output.readTestStatus();
    }
    return output;
  }

  /** The connection broke: every live run's outcome is unknown. */
  interruptAll(reason: string): void {
    for (const output of this.#outputs.values()) output.interrupt(reason);
  }
}
