import { formatConsoleLine, MAX_EVENTS_PER_RUN, MAX_PAYLOAD_BYTES, type RunOutcome } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, ECHO_SOURCE, eventCollector, gadget } from "./helpers.ts";

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

async function runSource(source: string, payload: unknown = {}, extra: Parameters<typeof gadget>[2] = []) {
  const session = ws.client.getSession();
  const draft = await session.createDraft({ files: gadget(source, {}, extra) });
  const collector = eventCollector();
  const outcome: RunOutcome = await session.runDraft(draft.id, payload as never, collector.listener);
  return { outcome, collector, draft };
}

function expectError(outcome: RunOutcome, kind: string): Extract<RunOutcome, { status: "error" }> {
  expect(outcome.status, JSON.stringify(outcome)).toBe("error");
  if (outcome.status !== "error") throw new Error("unreachable");
  expect(outcome.kind).toBe(kind);
  return outcome;
}

describe("runDraft", () => {
  it("returns the echo result with timings and ends the stream with an end event", async () => {
    const { outcome, collector } = await runSource(ECHO_SOURCE, { input: "hi" });
    expect(outcome).toMatchObject({ status: "ok", result: "Echo: hi" });
    expect(outcome.timings.totalMs).toBeGreaterThanOrEqual(outcome.timings.runMs);
    const types = collector.events.map((entry) => entry.event.type);
    expect(types.at(-1)).toBe("end");
    expect(types).toContain("status");
    const seqs = collector.events.map((entry) => entry.event.seq);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
  });

  it("delivers the first log line long before the run ends", async () => {
    const source = `export default {
  async run() {
    for (let i = 0; i < 10; i++) {
      console.log("tick", i);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return "done";
  },
};`;
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(source) });
    let settled = false;
    let settledWhenFirstLogArrived: boolean | undefined;
    const arrivals: number[] = [];
    const running = session
      .runDraft(draft.id, {}, (event) => {
        if (event.type !== "log") return;
        if (arrivals.length === 0) settledWhenFirstLogArrived = settled;
        arrivals.push(performance.now());
      })
      .then((outcome) => {
        settled = true;
        return { outcome, at: performance.now() };
      });
    const { outcome, at: endAt } = await running;
    expect(outcome.status).toBe("ok");
    expect(arrivals).toHaveLength(10);
    expect(settledWhenFirstLogArrived).toBe(false);
    // The gadget spends ~900 ms after its first log; the first line must not wait for the end.
    expect(endAt - (arrivals[0] ?? endAt)).toBeGreaterThan(500);
  });

  it("runs type-annotated TypeScript (interfaces, enums, generics) with imports between files", async () => {
    const source = `import { greet, Mood } from "./lib/greet";
interface Input { name: string }
export default {
  async run(payload: Input): Promise<string> {
    return greet<string>(payload.name, Mood.Happy);
  },
};`;
    const lib = `export enum Mood { Happy = "happy", Sad = "sad" }
export function greet<T extends string>(name: T, mood: Mood): string { return \`\${name} is \${mood}\`; }`;
    const { outcome } = await runSource(source, { name: "Ada" }, [{ path: "lib/greet.ts", content: lib }]);
    expect(outcome).toMatchObject({ status: "ok", result: "Ada is happy" });
  });

  it("reports a TypeScript syntax error as invalid with the file and line", async () => {
    const { outcome, collector } = await runSource(`export default {\n  async run() {\n    const x = ;\n  },\n};\n`);
    const error = expectError(outcome, "invalid");
    expect(error.message).toContain("index.ts");
    expect(error.error?.frames[0]).toMatchObject({ file: "index.ts", line: 3 });
    expect(collector.ofType("error")).toHaveLength(1);
  });

  it("maps a runtime error's stack to the gadget's own file:line", async () => {
    const util = `export function fail(): never {\n  throw new TypeError("broken on purpose");\n}\n`;
    const source = `import { fail } from "./util";\nexport default {\n  async run() {\n    fail();\n  },\n};\n`;
    const { outcome, collector } = await runSource(source, {}, [{ path: "util.ts", content: util }]);
    const error = expectError(outcome, "user");
    expect(error.message).toContain("TypeError: broken on purpose");
    expect(error.error?.frames.filter((frame) => frame.file !== "<runtime>")).toEqual([
      expect.objectContaining({ file: "util.ts", line: 2 }),
      expect.objectContaining({ file: "index.ts", line: 4 }),
    ]);
    expect(error.error?.stack).toContain("(util.ts:2:");
    expect(collector.ofType("error")[0]?.error.message).toBe("broken on purpose");
  });

  it("reports an awaited rejection as a user error", async () => {
    const { outcome } = await runSource(
      `export default {\n  async run() {\n    await Promise.reject(new Error("async nope"));\n  },\n};\n`,
    );
    expect(expectError(outcome, "user").message).toContain("Error: async nope");
  });

  it("streams an unhandled rejection as an uncaught error event while the run still succeeds", async () => {
    const source = `export default {
  async run() {
    Promise.reject(new Error("forgotten promise"));
    await new Promise((resolve) => setTimeout(resolve, 20));
    return "finished";
  },
};`;
    const { outcome, collector } = await runSource(source);
    expect(outcome).toMatchObject({ status: "ok", result: "finished" });
    const errors = collector.ofType("error");
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ uncaught: true, error: { message: "forgotten promise" } });
  });

  it("blocks fetch: a gadget has no network unless granted", async () => {
    const source = `export default {
  async run() {
    await fetch("http://127.0.0.1:1/");
    return "reached the network";
  },
};`;
    const { outcome } = await runSource(source);
    expect(expectError(outcome, "user").message).toMatch(/not permitted to access the internet/i);
  });

  it("survives hostile console values and shows them readably", async () => {
    const source = `export default {
  async run() {
    const cycle: any = { name: "loop" };
    cycle.self = cycle;
    const trap = new Proxy({}, { get() { throw new Error("trap!"); }, ownKeys() { throw new Error("keys trap!"); } });
    const getter = { get boom() { throw new Error("getter!"); } };
    console.log(cycle, new Map([["k", new Set([1, 2])]]), 10n, undefined, new Date(0), /re/g, Symbol("s"));
    console.log(trap, getter, new TypeError("as value"));
    console.log("x".repeat(50 * 1024 * 1024));
    console.warn(Array.from({ length: 5000 }, (_, i) => i));
    let deep: any = {};
    for (let i = 0; i < 100; i++) deep = { deep };
    console.error(deep);
    return "still alive";
  },
};`;
    const { outcome, collector } = await runSource(source);
    expect(outcome).toMatchObject({ status: "ok", result: "still alive" });
    const logs = collector.ofType("log");
    expect(logs).toHaveLength(5);
    const [first, second, big, wide, deep] = logs;
    expect(formatConsoleLine(first?.values ?? [])).toBe(
      '{ name: "loop", self: [Circular] } Map(1) { "k" => Set(2) { 1, 2 } } 10n undefined 1970-01-01T00:00:00.000Z /re/g Symbol(s)',
    );
    expect(second?.values[0]).toMatchObject({ t: "unreadable" });
    expect(second?.values[1]).toMatchObject({ t: "object", entries: [["boom", { t: "unreadable" }]] });
    expect(second?.values[2]).toMatchObject({ t: "error", name: "TypeError", message: "as value" });
    expect(big?.values[0]).toMatchObject({ t: "string", length: 50 * 1024 * 1024 });
    expect(big?.values[0]?.t === "string" && big.values[0].v.length).toBe(10_000);
    expect(wide).toMatchObject({ level: "warn", values: [{ t: "array", length: 5000 }] });
    expect(JSON.stringify(deep?.values)).toContain('"truncated"');
  });

  it("streams MAX_EVENTS_PER_RUN console lines and counts the rest as dropped", async () => {
    const { outcome, collector } = await runSource(
      `export default { async run() { for (let i = 0; i < ${MAX_EVENTS_PER_RUN + 1000}; i++) console.log(i); return "done"; } };`,
    );
    expect(outcome).toMatchObject({ status: "ok", result: "done" });
    expect(collector.ofType("log")).toHaveLength(MAX_EVENTS_PER_RUN);
    expect(collector.ofType("dropped")).toEqual([expect.objectContaining({ count: 1000 })]);
  });

  it("refuses an oversized payload with a clear error and keeps the session usable", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE) });
    const outcome = await session.runDraft(draft.id, { input: "x".repeat(MAX_PAYLOAD_BYTES) });
    expect(expectError(outcome, "invalid").message).toMatch(/payload is \d+ bytes as JSON; the limit is 1048576 bytes/);
    expect(await session.runDraft(draft.id, { input: "again" })).toMatchObject({ status: "ok", result: "Echo: again" });
  });

  it("accepts a payload of exactly the limit", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default { async run(p: { input: string }) { return p.input.length; } };`),
    });
    const input = "x".repeat(MAX_PAYLOAD_BYTES - JSON.stringify({ input: "" }).length);
    expect(await session.runDraft(draft.id, { input })).toMatchObject({ status: "ok", result: input.length });
  });

  it("ends a never-settling promise with a timeout and delivers nothing after the end event", async () => {
    const source = `export default {
  async run() {
    setTimeout(() => console.log("late line"), 600);
    await new Promise(() => {});
  },
};`;
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(source) });
    const collector = eventCollector();
    const outcome = await session.runDraft(draft.id, {}, collector.listener, { timeoutMs: 300 });
    expect(expectError(outcome, "timeout").message).toContain("longer than 300 ms");
    await new Promise((done) => setTimeout(done, 600));
    expect(collector.events.at(-1)?.event.type).toBe("end");
    expect(collector.ofType("log")).toHaveLength(0);
  });

  it("cancels a run on request with a cancelled outcome", async () => {
    const source = `export default {
  async run() {
    console.log("started");
    await new Promise((resolve) => setTimeout(resolve, 5000));
    return "not cancelled";
  },
};`;
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(source) });
    let runId: string | undefined;
    const started = new Promise<void>((resolve) => {
      void session
        .runDraft(
          draft.id,
          {},
          (event) => {
            runId = event.runId;
            if (event.type === "log") resolve();
          },
          { timeoutMs: 10_000 },
        )
        .then((outcome) => results.push(outcome));
    });
    const results: RunOutcome[] = [];
    await started;
    expect(await session.cancelRun(runId ?? "")).toBe(true);
    await expect.poll(() => results.length).toBe(1);
    expect(expectError(results[0] as RunOutcome, "cancelled").message).toContain("cancelled");
    expect(await session.cancelRun(runId ?? "")).toBe(false);
  });

  it("rejects a result that is not JSON with an invalid outcome", async () => {
    const { outcome } = await runSource(`export default { async run() { return { when: 1n }; } };`);
    expect(expectError(outcome, "invalid").message).toContain("not JSON");
  });

  it("explains a missing run() export", async () => {
    const { outcome } = await runSource(`export const notRun = 1;`);
    expect(expectError(outcome, "invalid").message).toContain("export default {");
  });

  it("refuses imports of anything but the gadget's own files", async () => {
    const { outcome } = await runSource(
      `import fs from "node:fs";\nexport default { async run() { return typeof fs; } };`,
    );
    expect(expectError(outcome, "invalid").message).toContain('Cannot import "node:fs"');
  });
});
