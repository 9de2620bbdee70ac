import { afterEach, describe, expect, it, vi } from "vitest";
import { controlLine, END_STATE } from "../control-lines.ts";
import type { ExecuteReply, LaneJob } from "../protocol.ts";
import { type JobExecutor, RunnerSeat } from "./runner-worker.ts";

const NONCE = "n0nce";

const job = (runId: string): LaneJob => ({
  runId,
  leaseId: "L1",
  workspaceId: "w",
  grants: {},
  isolateKey: "w:hash",
  gadget: { hash: "hash", mainModule: "h.js", modules: { "h.js": "" } },
  payload: runId,
  limits: { cpuMs: 1000, timeoutMs: 1000 },
});

const FINE: ExecuteReply = { status: "ok", result: "fine", eventLines: 2 };

/** A seat on one run at a time whose executor fails the job "broken" by `fail`, and answers FINE otherwise. */
function seatFailing(fail: () => Promise<ExecuteReply>) {
  const executor: JobExecutor = {
    executeJob: (executed) => (executed.runId === "broken" ? fail() : Promise.resolve(FINE)),
    hasCode: () => true,
  };
  const seat = new RunnerSeat(executor, NONCE);
  seat.assign("w", 1);
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  return { seat, lines: () => log.mock.calls.map(([line]) => line) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("RunnerSeat", () => {
  it.each([
    ["rejects", () => Promise.reject(new Error("loader refused the isolate"))],
    [
      "throws before its promise",
      () => {
        throw new Error("loader refused the isolate");
      },
    ],
  ])("ends a run whose executor %s, and runs the next job", async (_how, fail) => {
    const { seat, lines } = seatFailing(fail);

    expect(await seat.execute(job("broken"), null)).toEqual({
      status: "error",
      kind: "invalid",
      error: {
        name: "RunnerError",
        message: "The runner could not run the gadget: loader refused the isolate",
        stack: "",
      },
    });
    expect(lines()).toEqual([
      controlLine(NONCE, "broken", "start", ["L1", 1000]),
      controlLine(NONCE, "broken", "end", [0, END_STATE.done]),
    ]);

    // Its turn was given back: the next unplaced job finds room on this one-run seat.
    expect(await seat.execute(job("next"), null)).toEqual(FINE);
    expect(lines().slice(2)).toEqual([
      controlLine(NONCE, "next", "start", ["L1", 1000]),
      controlLine(NONCE, "next", "end", [2, END_STATE.done]),
    ]);
    await seat.close();
  });

  it("closed, takes the nested runs of the runs still on it, and nothing else; closes once they have all ended", async () => {
    let finishCaller = () => {};
    let callerRunning = () => {};
    const running = new Promise<void>((done) => {
      callerRunning = done;
    });
    const executor: JobExecutor = {
      executeJob: (executed) =>
        executed.runId === "caller"
          ? new Promise<ExecuteReply>((done) => {
              finishCaller = () => done(FINE);
              callerRunning();
            })
          : Promise.resolve(FINE),
      hasCode: () => true,
    };
    const seat = new RunnerSeat(executor, NONCE);
    seat.assign("w", 2);
    vi.spyOn(console, "log").mockImplementation(() => {});
    const caller = seat.execute(job("caller"), null);
    await running;
    let closed = false;
    const closing = seat.close().then(() => {
      closed = true;
    });
    expect(await seat.execute(job("plain"), null)).toEqual({ status: "refused", reason: "closed" });
    expect(await seat.execute({ ...job("nested"), nested: true }, null)).toEqual(FINE);
    expect(closed).toBe(false);
    finishCaller();
    expect(await caller).toEqual(FINE);
    await closing;
    // With nothing left on it, a nested job has no caller here: refused like any other.
    expect(await seat.execute({ ...job("late"), nested: true }, null)).toEqual({ status: "refused", reason: "closed" });
  });
});
