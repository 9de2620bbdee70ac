/**
 * Every RPC target checks its arguments with the same wire schemas, so they agree: an optional argument
 * left out, undefined or null means none, and a callback that is not a function is refused alike.
 */

import { createRpcClient, errorCode, type RunOutcome } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

const resultOf = (outcome: RunOutcome) => (outcome.status === "ok" ? outcome.result : outcome.message);

describe("optional arguments, as every RPC target reads them", () => {
  let ws: Connected;
  let draftId: string;
  let agentId: string;
  let shareId: string;
  let recordId: string;
  beforeAll(async () => {
    ws = await connectNewWorkspace();
    const session = ws.client.getSession();
    draftId = (await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "optional-args" }) })).id;
    agentId = (await session.publishDraft(draftId, null)).agentId;
    shareId = (await session.shareDraft(draftId, { input: "shared" })).shareId;
    const run = await session.runDraft(draftId, { input: "recorded" });
    recordId = (await session.shareRun(run.runId)).recordId;
  });
  afterAll(() => ws?.client[Symbol.dispose]());

  it("reads onEvent: null as no listener in every method that takes one", async () => {
    const session = ws.client.getSession();
    using visitor = createRpcClient({ url: workshopUrl() });
    const outcomes = [
      await session.runDraft(draftId, { input: "draft" }, null, null),
      await ws.client.getAgent(agentId).runWithEvents({ input: "agent" }, null, null),
      await visitor.api.openShare(shareId).run({ input: "share" }, null, null),
      await visitor.api.openRecord(recordId).runAgain(null),
    ];
    expect(outcomes.map(resultOf)).toEqual(["Echo: draft", "Echo: agent", "Echo: share", "Echo: recorded"]);
    expect((await session.runTests(draftId, null)).status).toBe("none");
    expect((await session.listRuns(null)).length).toBeGreaterThan(0);
    expect((await session.listRuns(null, null)).length).toBeGreaterThan(0);
  });

  it("refuses a listener that is not a function with one message and code in every target", async () => {
    const session = ws.client.getSession();
    using visitor = createRpcClient({ url: workshopUrl() });
    const notAFunction = "not a function" as never;
    const calls: Record<string, () => Promise<unknown>> = {
      "session.runDraft": () => session.runDraft(draftId, null, notAFunction),
      "agent.runWithEvents": () => ws.client.getAgent(agentId).runWithEvents(null, notAFunction),
      "share.run": () => visitor.api.openShare(shareId).run(null, notAFunction),
      "record.runAgain": () => visitor.api.openRecord(recordId).runAgain(notAFunction),
      "session.runTests": () => session.runTests(draftId, notAFunction),
    };
    for (const [name, call] of Object.entries(calls)) {
      const error = await call().then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      const parameter = name === "session.runTests" ? "onResult" : "onEvent";
      expect((error as Error | undefined)?.message, name).toBe(`${parameter} must be a function (or left out).`);
      expect(errorCode(error), name).toBe("INVALID_ARGUMENT");
    }
  });

  it("answers run options that are not an object as an invalid run, leaving no record", async () => {
    const session = ws.client.getSession();
    const before = (await session.listRuns(200)).length;
    const outcome = await session.runDraft(draftId, null, undefined, 5000 as never);
    expect(outcome).toMatchObject({
      status: "error",
      kind: "invalid",
      message: "Run options must be an object like { timeoutMs: 5000 } (or left out).",
    });
    expect((await session.listRuns(200)).length).toBe(before);
  });
});
