import { RpcTarget } from "capnweb";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { DirectFate, Lease } from "../runner/runner-api.ts";
import type { ExecuteJob, ExecuteReply, ExecuteRequest, IsolateEventSink } from "./executor.ts";
import { PoolExecutor } from "./pool-executor.ts";
import { upgradingFetch } from "./testing/socket-pair.ts";

/** Deeper than any Cap'n Web link will carry (its limit is 256): a reply holding it cannot be sent. */
function tooDeepToSend(): unknown {
  let value: unknown = 0;
  for (let i = 0; i < 300; i++) value = [value];
  return value;
}

const sink: IsolateEventSink = { started() {}, log() {}, error() {}, events() {}, dropped() {} };
let nextRun = 0;
const request = (payload: string): ExecuteRequest => ({
  runId: `run-${nextRun++}`,
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
  sink,
  signal: new AbortController().signal,
});

/** The supervisor as the Worker sees it: it never leases a runner here, so every run goes its way. */
class FakePool extends RpcTarget {
  readonly runs: string[] = [];
  /** Set, the next run breaks the link instead of answering. */
  breakLink: (() => void) | undefined;
  async execute(job: ExecuteJob): Promise<ExecuteReply> {
    this.runs.push(job.runId);
    const breakLink = this.breakLink;
    this.breakLink = undefined;
    if (breakLink) {
      breakLink();
      return new Promise(() => {});
    }
    if (job.payload === "deep") return { status: "ok", result: tooDeepToSend() } as ExecuteReply;
    return { status: "ok", result: "fine" };
  }
  async lease(): Promise<Lease | null> {
    return null;
  }
  async fate(): Promise<DirectFate> {
    return { status: "never-started" };
  }
  async cancel(): Promise<boolean> {
    return false;
  }
  async releaseLease(): Promise<void> {}
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("PoolExecutor", () => {
  it("ends a run whose reply the pool's link refused as that run's outcome, and keeps the pool for the next", async () => {
    const pool = new FakePool();
    const served = upgradingFetch(() => pool);
    const fetch = vi.fn(served.fetch);
    vi.stubGlobal("fetch", fetch);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    expect(await executor.execute(request("deep"))).toMatchObject({
      status: "error",
      kind: "invalid",
      error: { name: "UnsendableReply", message: expect.stringContaining("maximum allowed depth") },
    });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(pool.runs).toHaveLength(2);
    expect(fetch).toHaveBeenCalledTimes(1);
    executor[Symbol.dispose]();
  });

  it("reconnects after a run lost with a broken link, saying the pool could not run it", async () => {
    const pool = new FakePool();
    const served = upgradingFetch(() => pool);
    const fetch = vi.fn(served.fetch);
    vi.stubGlobal("fetch", fetch);
    const executor = new PoolExecutor({ url: "http://pool", secret: "s" });
    pool.breakLink = () => served.sockets.at(-1)?.close();
    expect(await executor.execute(request("echo"))).toMatchObject({ status: "error", kind: "busy" });
    expect(await executor.execute(request("echo"))).toEqual({ status: "ok", result: "fine" });
    expect(fetch).toHaveBeenCalledTimes(2);
    executor[Symbol.dispose]();
  });
});
