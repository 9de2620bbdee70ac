import { createLogger } from "@gadgets/backend-utils/logger";
import type { RunEvent } from "@gadgets/workshop-shared/api";
import { describe, expect, it } from "vitest";
import type { ExecuteRequest, ExecuteResult, Executor } from "./executors/executor.ts";
import { Overseer } from "./overseer.ts";

let nextRun = 0;
const files = (manifest: Record<string, unknown> = {}) => [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "index.ts", ...manifest }) },
  { path: "index.ts", content: "export default { async run(p: unknown) { return p; } };" },
];

/** An executor the test drives: each request is kept, and `answer` says what it does with it. */
function executor(answer: (request: ExecuteRequest) => Promise<ExecuteResult>) {
  const requests: ExecuteRequest[] = [];
  const value: Executor = {
    execute(request) {
      requests.push(request);
      return answer(request);
    },
  };
  return { value, requests };
}

function run(
  exec: Executor,
  options: { payload?: unknown; timeoutMs?: number; manifest?: Record<string, unknown>; signal?: AbortSignal } = {},
) {
  const lines: string[] = [];
  const overseer = new Overseer({ logger: createLogger({}, (line) => lines.push(line)) });
  const events: RunEvent[] = [];
  const report = overseer.run({
    runId: `run-${nextRun++}`,
    executor: exec,
    workspaceId: "w",
    source: { kind: "draft", draftId: "d", version: 1 },
    files: files(options.manifest),
    payload: options.payload ?? { a: 1 },
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
    ...(options.signal ? { signal: options.signal } : {}),
    listener: (event) => void events.push(event),
  });
  return { report, events, lines };
}

describe("Overseer", () => {
  it("builds the gadget, hands the executor the job with its limits, and ends ok with the result", async () => {
    const exec = executor(async () => ({ status: "ok", result: "done" }));
    const { report, events } = run(exec.value, { timeoutMs: 1234 });
    const { outcome, record } = await report;
    expect(outcome).toMatchObject({ status: "ok", result: "done" });
    expect(record.outcome.status).toBe("ok");
    const [request] = exec.requests;
    expect(request?.workspaceId).toBe("w");
    expect(request?.payload).toEqual({ a: 1 });
    expect(request?.limits.timeoutMs).toBe(1234);
    expect(Object.keys(request?.gadget.modules ?? {})).toContain(request?.gadget.mainModule);
    expect(events.at(-1)?.type).toBe("end");
  });

  it("refuses a payload that breaks the inputSchema before any isolate runs", async () => {
    const exec = executor(async () => ({ status: "ok", result: null }));
    const { report } = run(exec.value, {
      payload: { a: "not a number" },
      manifest: {
        inputSchema: { type: "object", properties: { a: { type: "number" } }, required: ["a"] },
      },
    });
    expect((await report).outcome).toMatchObject({ status: "error", kind: "invalid" });
    expect(exec.requests).toHaveLength(0);
  });

  it("times a run from when the executor says it started, and aborts the executor's signal at the deadline", async () => {
    const exec = executor(
      (request) =>
        new Promise((resolve) => {
          request.sink.started();
          request.signal.addEventListener("abort", () =>
            resolve({ status: "error", kind: "timeout", message: "stopped by the executor" }),
          );
        }),
    );
    const { report } = run(exec.value, { timeoutMs: 50 });
    const { outcome } = await report;
    expect(outcome).toMatchObject({ status: "error", kind: "timeout" });
    expect(exec.requests[0]?.signal.aborted).toBe(true);
  });

  it("ends a cancelled run as cancelled, its executor's signal aborted", async () => {
    const controller = new AbortController();
    const exec = executor(
      (request) =>
        new Promise((resolve) => {
          request.sink.started();
          request.signal.addEventListener("abort", () =>
            resolve({ status: "error", kind: "cancelled", message: "stopped" }),
          );
          controller.abort({ kind: "cancelled", message: "The run was cancelled." });
        }),
    );
    const { outcome } = await run(exec.value, { signal: controller.signal }).report;
    expect(outcome).toMatchObject({ status: "error", kind: "cancelled" });
    expect(exec.requests[0]?.signal.aborted).toBe(true);
  });

  it("checks what the isolate reports again: a console value of no known shape does not reach the listener as is", async () => {
    const exec = executor(async (request) => {
      request.sink.started();
      request.sink.log("log", [{ t: "string", v: "fine" }]);
      request.sink.log("log", [{ t: "nonsense", v: 1 } as never]);
      return { status: "ok", result: 1 };
    });
    const { report, events } = run(exec.value);
    await report;
    const logs = events.filter((event) => event.type === "log");
    expect(logs[0]).toMatchObject({ values: [{ t: "string", v: "fine" }] });
    expect(logs[1]).toMatchObject({ values: [{ t: "unreadable" }] });
    expect(JSON.stringify(logs)).not.toContain("nonsense");
  });
});
