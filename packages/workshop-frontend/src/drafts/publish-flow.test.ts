import { codedError } from "@gadgets/workshop-shared";
import { describe, expect, it, vi } from "vitest";
import { callSnippets, type PublishedVersion, publishedText, publishStep, refusalText } from "./publish-flow.ts";

const version: PublishedVersion = { name: "echo", version: 3, agentId: "a1" };
const refused = codedError(
  "TESTS_FAILED",
  'Saved #3 of the draft was not published: 1 of 2 test cases failed ("greets"). Fix the gadget or its tests, or publish with { overrideTests: true } to publish it anyway (the version records that).',
);

describe("publishStep", () => {
  it("says which version was published, and how to pin it", async () => {
    const step = await publishStep(async () => version);
    expect(step).toEqual({ status: "published", version, testsOverridden: false });
    if (step.status !== "published") throw new Error("not published");
    expect(publishedText(step)).toBe("Published echo v3 (echo@3) — agent id a1");
    expect(publishedText({ ...step, version: { ...version, endpointUrl: "http://127.0.0.1:8788/h/hook" } })).toBe(
      "Published echo v3 (echo@3) — agent id a1; its endpoint answers at http://127.0.0.1:8788/h/hook",
    );
  });

  it("hands a tests refusal back for the person to decide, in the IDE's words", async () => {
    const publish = vi.fn(async (override: boolean) => {
      if (!override) throw refused;
      return version;
    });
    const first = await publishStep(publish);
    expect(first).toEqual({
      status: "tests-failed",
      message:
        'Saved #3 of the draft was not published: 1 of 2 test cases failed ("greets"). Fix the gadget or its tests.',
    });
    expect(JSON.stringify(first)).not.toContain("overrideTests");
    const anyway = await publishStep(publish, true);
    expect(anyway.status === "published" && publishedText(anyway)).toBe(
      "Published echo v3 (echo@3) — agent id a1 (tests overridden)",
    );
    expect(publish.mock.calls).toEqual([[false], [true]]);
  });

  it("words other errors, and a failure of publishing anyway, as failures", async () => {
    expect(await publishStep(async () => Promise.reject(new Error("The connection is closed.")))).toEqual({
      status: "failed",
      message: "The connection is closed.",
    });
    expect(await publishStep(async () => Promise.reject(refused), true)).toMatchObject({ status: "failed" });
  });
});

describe("refusalText", () => {
  it("leaves a message without the API's hint as it is", () => {
    expect(refusalText("Storage is full.")).toBe("Storage is full.");
  });
});

describe("callSnippets", () => {
  it("calls the pinned version from Node as the README does, and from the command line", () => {
    const { node, cli } = callSnippets(version, { input: "it's" });
    expect(node).toContain('import { createRpcClient } from "@gadgets/workshop-shared";');
    expect(node).toContain('await client.getAgent("echo@3").run({"input":"it\'s"});');
    expect(cli).toBe(`gadgets call 'echo@3' --input '{"input":"it'\\''s"}'`);
    expect(callSnippets(version, undefined).cli).toBe("gadgets call 'echo@3' --input 'null'");
  });

  it("quotes the agent's name, so a pasted line runs nothing else", () => {
    const odd = { ...version, name: "demo$(touch /tmp/x)'`id`" };
    const { node, cli } = callSnippets(odd, { input: "x" });
    expect(cli).toBe(`gadgets call 'demo$(touch /tmp/x)'\\''\`id\`@3' --input '{"input":"x"}'`);
    expect(node).toContain(`client.getAgent(${JSON.stringify("demo$(touch /tmp/x)'`id`@3")})`);
  });

  it("writes invisible and bidi characters of the name and payload as escapes", () => {
    const { node, cli } = callSnippets({ ...version, name: "a\u202eb" }, { input: "c\u2066d" });
    expect(cli).toBe(`gadgets call 'a\u202eb@3' --input '{"input":"c\\u2066d"}'`);
    expect(node).toContain('client.getAgent("a\\u202eb@3").run({"input":"c\\u2066d"});');
  });
});
