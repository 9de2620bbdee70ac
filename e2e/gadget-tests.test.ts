import {
  MAX_TEST_RESULT_BYTES,
  type TestCaseResult,
  type TestRunSummary,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, gadget } from "./helpers.ts";

const ADDER = `export default {
  async run({ a, b }: { a: number; b: number }) {
    if (a === 0) console.error("a is zero");
    return { sum: a + b, items: [a, b] };
  },
};
`;

const testsFile = (tests: unknown[]) => ({ path: "gadget.tests.json", content: JSON.stringify({ tests }) });

const THREE_CASES = [
  { name: "adds", input: { a: 1, b: 2 }, expect: { equals: { sum: 3, items: [1, 2] } } },
  { name: "subset", input: { a: 2, b: 2 }, expect: { contains: { sum: 4 }, noErrorLogs: true } },
  { name: "wrong", input: { a: 0, b: 5 }, expect: { equals: { sum: 6, items: [0, 5] }, noErrorLogs: true } },
];

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

async function draftWith(client: WorkshopClient, tests: unknown[], source = ADDER) {
  const session = client.getSession();
  const draft = await session.createDraft({ files: gadget(source, { name: "adder" }, [testsFile(tests)]) });
  return { session, draft };
}

describe("runTests", () => {
  it("streams one result per case with a structured diff for the failing one, then sums up", async () => {
    const { session, draft } = await draftWith(ws.client, THREE_CASES);
    const streamed: TestCaseResult[] = [];
    let resolved = false;
    const summary: TestRunSummary = await session.runTests(draft.id, (result) => {
      expect(resolved).toBe(false);
      streamed.push(result);
    });
    resolved = true;
    expect(streamed.map((result) => [result.name, result.status]).sort()).toEqual([
      ["adds", "passed"],
      ["subset", "passed"],
      ["wrong", "failed"],
    ]);
    const wrong = streamed.find((result) => result.name === "wrong");
    expect(wrong?.failures).toEqual([
      { check: "equals", path: "$.sum", expected: 6, actual: 5, message: "expected 6, got 5" },
      { check: "noErrorLogs", path: "$", expected: 0, actual: 1, message: "the run wrote 1 console.error line" },
    ]);
    expect(wrong?.outcome).toMatchObject({ status: "ok", result: { sum: 5, items: [0, 5] } });
    expect(summary).toMatchObject({ status: "failed", total: 3, passed: 2, failed: 1, version: draft.version });
    if (summary.status === "invalid") throw new Error("unreachable");
    expect(summary.results.map((result) => result.name)).toEqual(["adds", "subset", "wrong"]);

    // Each case ran as an ordinary run with its own record.
    for (const result of streamed) {
      const record = await session.getRun(result.runId);
      expect(record.source).toEqual({ kind: "draft", draftId: draft.id, version: draft.version });
      expect(record.payload).toEqual(THREE_CASES.find((test) => test.name === result.name)?.input);
    }
    expect(await session.lastTestStatus(draft.id)).toMatchObject({
      status: "failed",
      version: draft.version,
      passed: 2,
      failed: 1,
    });
  });

  it("refuses to publish a version whose tests fail, publishes it with the override and records that", async () => {
    const { session, draft } = await draftWith(ws.client, THREE_CASES);
    await expect(session.publishDraft(draft.id)).rejects.toThrow(
      `Saved #1 of the draft was not published: 1 of 3 test cases failed ("wrong"). Fix the gadget or its tests, or publish with { overrideTests: true } to publish it anyway (the version records that).`,
    );
    expect((await session.listAgents()).some((agent) => agent.draftId === draft.id)).toBe(false);

    const forced = await session.publishDraft(draft.id, { overrideTests: true });
    expect(forced.tests).toMatchObject({ status: "failed", overridden: true, passed: 2, failed: 1, total: 3 });
    expect(forced.tests?.cases.map((c) => [c.name, c.status])).toEqual([
      ["adds", "passed"],
      ["subset", "passed"],
      ["wrong", "failed"],
    ]);
    const listed = (await session.listAgents()).find((agent) => agent.agentId === forced.agentId);
    expect(listed?.tests).toMatchObject({ status: "failed", overridden: true });
    expect((await session.getAgent(`${forced.agentId}@1`).describe()).tests).toMatchObject({ overridden: true });

    // Fixed: the next version publishes without the override and records a pass.
    const fixed = THREE_CASES.map((test) =>
      test.name === "wrong" ? { ...test, expect: { equals: { sum: 5, items: [0, 5] } } } : test,
    );
    const saved = await session.saveDraft(draft.id, {
      baseVersion: draft.version,
      files: gadget(ADDER, { name: "adder" }, [testsFile(fixed)]),
    });
    expect(saved.status).toBe("saved");
    const second = await session.publishDraft(draft.id);
    expect(second.version).toBe(2);
    expect(second.tests).toMatchObject({ status: "passed", passed: 3, failed: 0 });
    expect(second.tests?.overridden).toBeUndefined();
    expect((await session.listAgents()).find((agent) => agent.agentId === forced.agentId)?.tests?.status).toBe(
      "passed",
    );
  });

  it("reports an invalid test file without running anything, and refuses to publish it", async () => {
    const { session, draft } = await draftWith(ws.client, [{ name: "x", input: 1, expect: { equal: 1 } }]);
    const summary = await session.runTests(draft.id);
    expect(summary).toEqual({
      status: "invalid",
      draftId: draft.id,
      version: 1,
      message:
        'gadget.tests.json: test "x": unknown expectation "equal"; the expectations are outcome, equals, contains, matches, noErrorLogs, maxMs.',
    });
    await expect(session.publishDraft(draft.id)).rejects.toThrow("its test file is invalid");
  });

  it("refuses a pattern that repeats an empty group, while another client is still answered", async () => {
    // Nested counted repeats of an empty group once kept the Worker's thread compiling for hours.
    const pattern = "((((){1000}){1000}){1000}){1000}";
    const { session, draft } = await draftWith(ws.client, [{ name: "x", input: null, expect: { matches: pattern } }]);
    const other = await connectNewWorkspace();
    try {
      const [summary, pong] = await Promise.all([session.runTests(draft.id), other.client.api.ping()]);
      expect(summary).toEqual({
        status: "invalid",
        draftId: draft.id,
        version: 1,
        message:
          'gadget.tests.json: test "x": "matches" is not a supported pattern: "{1000}" at position 5 repeats something that can only match the empty string, like "()" or "(|)"; put something to match inside the group, or remove the repeat.',
      });
      expect(pong).toBe("pong");
      await expect(session.publishDraft(draft.id)).rejects.toThrow("its test file is invalid");
    } finally {
      other.client[Symbol.dispose]();
    }
  });

  it("publishes a gadget without tests, recording that it has none", async () => {
    const session = ws.client.getSession();
    const draft = await session.createDraft({ files: gadget(ADDER, { name: "untested" }) });
    const version = await session.publishDraft(draft.id);
    expect(version.tests).toMatchObject({ status: "none", total: 0 });
  });

  it("checks patterns in linear time: a pattern that stalls a backtracking engine fails at once", async () => {
    const source = `export default { async run() { return "a".repeat(10000) + "b"; } };`;
    const { session, draft } = await draftWith(
      ws.client,
      [
        { name: "explosive", input: null, expect: { matches: "^(a+)+$" } },
        { name: "fine", input: null, expect: { matches: "a{3}b$" } },
      ],
      source,
    );
    const summary = await session.runTests(draft.id);
    if (summary.status === "invalid") throw new Error(summary.message);
    expect(summary.results.map((result) => [result.name, result.status])).toEqual([
      ["explosive", "failed"],
      ["fine", "passed"],
    ]);
    expect(summary.results[0]?.failures[0]).toMatchObject({ check: "matches", expected: "^(a+)+$" });
  });

  it(`carries results of ${MAX_TEST_RESULT_BYTES} bytes of JSON and replaces larger ones by a note`, async () => {
    // A string of n characters is n + 2 bytes of JSON.
    const source = `export default { async run({ n }: { n: number }) { return "x".repeat(n); } };`;
    const { session, draft } = await draftWith(
      ws.client,
      [
        { name: "at the limit", input: { n: MAX_TEST_RESULT_BYTES - 2 }, expect: { outcome: "ok" } },
        { name: "past it", input: { n: MAX_TEST_RESULT_BYTES - 1 }, expect: { outcome: "ok" } },
      ],
      source,
    );
    const summary = await session.runTests(draft.id);
    if (summary.status === "invalid") throw new Error(summary.message);
    const [atLimit, past] = summary.results;
    expect([atLimit?.status, past?.status]).toEqual(["passed", "passed"]);
    expect(atLimit?.resultTruncated).toBeUndefined();
    expect(atLimit?.outcome.status === "ok" && atLimit.outcome.result).toBe("x".repeat(MAX_TEST_RESULT_BYTES - 2));
    expect(past?.resultTruncated).toBe(true);
    expect(past?.outcome.status === "ok" && past.outcome.result).toBe(
      `(a result of ${MAX_TEST_RESULT_BYTES + 1} bytes, more than a test result carries: see run ${past?.runId})`,
    );
    const record = await session.getRun(past?.runId as string);
    expect(record.outcome.status === "ok" && record.outcome.result).toBe("x".repeat(MAX_TEST_RESULT_BYTES - 1));
  });

  it("runs the cases of a gadget that calls agents one at a time, so each call chain finds its run slots", async () => {
    const session = ws.client.getSession();
    const publish = async (name: string, source: string, grants: Record<string, unknown> = {}) => {
      const draft = await session.createDraft({ files: gadget(source, { name, grants }) });
      await session.publishDraft(draft.id);
    };
    await publish("leaf", `export default { async run(n: number) { return n + 1; } };`);
    await publish(
      "middle",
      `export default { async run(n: number, env: any) { return env.catalog.get("leaf").run(n * 10); } };`,
      { catalog: true },
    );
    // Each case is three runs deep (top → middle → leaf): two such cases at once would need six slots.
    const top = `export default { async run(n: number, env: any) { return env.catalog.get("middle").run(n); } };`;
    const cases = [1, 2, 3, 4].map((n) => ({ name: `chain ${n}`, input: n, expect: { equals: n * 10 + 1 } }));
    const draft = await session.createDraft({
      files: gadget(top, { name: "top", grants: { catalog: true } }, [testsFile(cases)]),
    });
    const summary = await session.runTests(draft.id);
    expect(summary).toMatchObject({ status: "passed", passed: 4 });
  });

  it("runs one suite at a time per session; another workspace's runs and suites go on meanwhile", async () => {
    const slow = `export default { async run({ n }: { n: number }) { await new Promise((r) => setTimeout(r, 150)); return n; } };`;
    const greedyCases = Array.from({ length: 30 }, (_, n) => ({
      name: `slow ${n}`,
      input: { n },
      expect: { equals: n },
    }));
    const greedy = await draftWith(ws.client, greedyCases, slow);
    const suite = greedy.session.runTests(greedy.draft.id);
    let suiteDone = false;
    void suite.then(() => {
      suiteDone = true;
    });
    // The same session may not start a second suite while this one runs (calls arrive in order)…
    await expect(greedy.session.runTests(greedy.draft.id)).rejects.toThrow(
      "This session is already running 1 test suite, the limit.",
    );

    // …while another workspace runs a gadget and a whole suite before the greedy one is done.
    const other = await connectNewWorkspace();
    try {
      const quiet = await draftWith(other.client, THREE_CASES);
      const run = await quiet.session.runDraft(quiet.draft.id, { a: 1, b: 1 });
      expect(run).toMatchObject({ status: "ok", result: { sum: 2, items: [1, 1] } });
      const summary = await quiet.session.runTests(quiet.draft.id);
      expect(summary).toMatchObject({ status: "failed", passed: 2, failed: 1 });
      expect(suiteDone).toBe(false);
    } finally {
      other.client[Symbol.dispose]();
    }
    expect(await suite).toMatchObject({ status: "passed", passed: 30 });
  });
});
