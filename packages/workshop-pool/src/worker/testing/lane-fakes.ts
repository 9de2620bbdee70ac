/**
 * The supervisor and the runners as a Worker session sees them, for the Worker side's unit tests: a
 * fake pool (RunnerPoolApi) that holds the session's listener as a real supervisor does, fake runners
 * (RunnerLaneApi) on their lanes, and a `fetch` that reaches both over in-memory WebSockets.
 */

import { type RpcStub, RpcTarget } from "capnweb";
import { vi } from "vitest";
import type { JsonValue } from "@gadgets/workshop-shared/api";
import { newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import type {
  CapabilityHandler,
  ExecuteResult,
  IsolateEventSink,
  LaneJob,
  LaneReply,
  LeaseListener,
  Placement,
  RunFate,
  RunnerPoolApi,
  RunnerLaneApi,
} from "../../protocol.ts";
import { Conditions } from "../../testing/conditions.ts";
import { type FakeSocket, socketPair, upgradingFetch } from "../../testing/socket-pair.ts";
import { ListenerTarget, type RunnerLanes } from "../runner-lanes.ts";

export const POOL_URL = "http://pool/pool";

export const laneUrl = (runner: number) => `http://runner-${runner}/lane`;

/** The lease `L<runner>` on runner `runner`. */
export const leaseOn = (runner: number): Placement => ({
  status: "placed",
  lease: { leaseId: `L${runner}`, url: laneUrl(runner) },
});

/** Deeper than any Cap'n Web link will carry (its limit is 256): a reply holding it cannot be sent. */
export function tooDeepToSend(): JsonValue {
  let value: JsonValue = 0;
  for (let i = 0; i < 300; i++) value = [value];
  return value;
}

export const quietSink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };

export class FakePool extends RpcTarget implements RunnerPoolApi {
  readonly places: [string, string, boolean][] = [];
  readonly unplaced: string[] = [];
  readonly cancels: [string, string, string | undefined][] = [];
  readonly fates: [string, string][] = [];
  readonly released: string[] = [];
  /** The newest session's main object on the Worker's side: what a supervisor tells of runs and leases. */
  listener: RpcStub<LeaseListener> | undefined;
  /** How `place` answers its `count`th call (from 1); by default the lease on runner 1. */
  placement: (runId: string, count: number) => Placement | Promise<Placement> = () => leaseOn(1);
  fateAnswer: RunFate | Promise<RunFate> = { status: "unknown" };

  constructor(readonly heard: Conditions) {
    super();
  }

  async place(runId: string, workspaceId: string, nested: boolean): Promise<Placement> {
    this.places.push([runId, workspaceId, nested]);
    this.heard.changed();
    return await this.placement(runId, this.places.length);
  }
  async unplace(runId: string): Promise<void> {
    this.unplaced.push(runId);
    this.heard.changed();
  }
  async cancel(runId: string, reason: "timeout" | "cancelled", leaseId?: string): Promise<boolean> {
    this.cancels.push([runId, reason, leaseId]);
    this.heard.changed();
    return true;
  }
  async fate(runId: string, leaseId: string): Promise<RunFate> {
    this.fates.push([runId, leaseId]);
    this.heard.changed();
    return await this.fateAnswer;
  }
  async releaseLease(leaseId: string): Promise<void> {
    this.released.push(leaseId);
    this.heard.changed();
  }
}

type Answer = (job: LaneJob, capabilities: RpcStub<CapabilityHandler> | null) => LaneReply | Promise<LaneReply>;

/**
 * A runner's lane. It keeps the code it was sent by hash (`forget` empties that, as a restarted
 * runner would) and answers `missing-code` for code it lacks; otherwise `answer` says how it replies.
 */
export class FakeLaneRunner extends RpcTarget implements RunnerLaneApi {
  readonly jobs: LaneJob[] = [];
  readonly #known = new Set<string>();
  answer: Answer = () => ({ status: "ok", result: "fine" });

  constructor(readonly heard: Conditions) {
    super();
  }
  forget(): void {
    this.#known.clear();
  }
  async execute(job: LaneJob, capabilities: CapabilityHandler | null): Promise<LaneReply> {
    this.jobs.push(job);
    this.heard.changed();
    if (job.gadget.modules) this.#known.add(job.gadget.hash);
    else if (!this.#known.has(job.gadget.hash)) return { status: "missing-code" };
    return await this.answer(job, capabilities as RpcStub<CapabilityHandler> | null);
  }
}

type Upgrade = { status: number; webSocket: FakeSocket | null };

/**
 * A fake pool at POOL_URL and fake runners at their lane URLs, reached by a stubbed global `fetch`; a
 * lane URL of no runner answers without a WebSocket (its lane does not open). The sockets' served ends
 * are kept, newest last: close one to break that link. `holdNextFetch` keeps the next fetch waiting.
 */
export function fakeWorld() {
  const heard = new Conditions();
  const pool = new FakePool(heard);
  const poolSockets: FakeSocket[] = [];
  const runners = new Map<string, { runner: FakeLaneRunner; fetch: () => Promise<Upgrade>; sockets: FakeSocket[] }>();
  const reach = async (url: string, _init?: RequestInit): Promise<Upgrade> => {
    if (url === POOL_URL) {
      const [client, server] = socketPair();
      poolSockets.push(server);
      pool.listener = newBatchedRpcSession<LeaseListener>(server, pool);
      return { status: 101, webSocket: client };
    }
    const served = runners.get(url);
    return served ? served.fetch() : { status: 404, webSocket: null };
  };
  const fetch = vi.fn(reach);
  vi.stubGlobal("fetch", fetch);
  return {
    heard,
    pool,
    poolSockets,
    fetch,
    /** Serves runner `n` at its lane URL. */
    runner(n: number): FakeLaneRunner {
      const runner = new FakeLaneRunner(heard);
      const served = upgradingFetch(() => runner);
      runners.set(laneUrl(n), { runner, ...served });
      return runner;
    },
    runnerSockets: (n: number): FakeSocket[] => runners.get(laneUrl(n))?.sockets ?? [],
    /** The next fetch waits for `go()`; `reached` settles once it is asked. */
    holdNextFetch(): { reached: Promise<void>; go(): void } {
      const reached = later<undefined>();
      const held = later<undefined>();
      fetch.mockImplementationOnce(async (url, init) => {
        reached.give(undefined);
        await held.promise;
        return reach(url, init);
      });
      return { reached: reached.promise, go: () => held.give(undefined) };
    },
    /** How many times a lane URL was fetched. */
    opened: (n: number): number => fetch.mock.calls.filter(([url]) => url === laneUrl(n)).length,
    /** A pool session for `lanes` (as PoolExecutor makes one): the listener is its main object. */
    connect(lanes: RunnerLanes): RpcStub<RunnerPoolApi> {
      const [client, server] = socketPair();
      poolSockets.push(server);
      pool.listener = newBatchedRpcSession<LeaseListener>(server, pool);
      return newBatchedRpcSession<RunnerPoolApi>(client, new ListenerTarget(lanes));
    },
  };
}

/** A value the test gives when it chooses: a placement or a fate answered late, say. */
export function later<T>(): { promise: Promise<T>; give(value: T): void } {
  let give: (value: T) => void = () => {};
  const promise = new Promise<T>((resolve) => {
    give = resolve;
  });
  return { promise, give };
}

/** An abort as RunnerLanes hears of it: a promise of the run's outcome. */
export function abortable(): { aborted: Promise<ExecuteResult>; abort(result: ExecuteResult): void } {
  let abort: (result: ExecuteResult) => void = () => {};
  const aborted = new Promise<ExecuteResult>((resolve) => {
    abort = resolve;
  });
  return { aborted, abort };
}

/** A run started, and whether it has ended yet. */
export function tracked<T>(result: Promise<T>): { result: Promise<T>; over(): boolean } {
  let over = false;
  void result.then(() => {
    over = true;
  });
  return { result, over: () => over };
}
