import { describe, expect, it } from "vitest";
import { connectNewWorkspace, eventCollector, gadget } from "./helpers.ts";

/**
 * A run of an agent's latest version starts on the version this Worker last saw while the lookup is
 * on its way. These tests hold that to what a caller must see: a publish is visible to the very next
 * call, and a run of the version it replaced leaves nothing behind — no effect, no console line, no record.
 */

/** Counts its runs in kv, says which version it is, and logs it. */
const counting = (version: string) => `export default {
  async run(_: unknown, env: any) {
    console.log("${version} ran");
    const n = Number((await env.kv.get("runs")) ?? "0");
    await env.kv.put("runs", String(n + 1));
    return { version: "${version}", runsBefore: n };
  },
};`;

describe("the latest version of an agent", () => {
  it("is what the very next call runs after a publish, and the version it replaced leaves no trace", async () => {
    const { client } = await connectNewWorkspace();
    try {
      const session = client.getSession();
      const draft = await session.createDraft({ files: gadget(counting("v1"), { grants: { kv: true } }) });
      const { agentId } = await session.publishDraft(draft.id);
      const agent = client.getAgent(agentId);
      for (let i = 0; i < 3; i++) expect(await agent.run({})).toEqual({ version: "v1", runsBefore: i });

      const saved = await session.saveDraft(draft.id, {
        baseVersion: draft.version,
        files: gadget(counting("v2"), { grants: { kv: true } }),
      });
      expect(saved.status).toBe("saved");
      const runsBefore = (await session.listRuns(100)).length;
      await session.publishDraft(draft.id);

      const collector = eventCollector();
      const outcome = await agent.runWithEvents({}, collector.listener);
      // v1 was the guess; its run must not have counted itself, logged, or left a record.
      expect(outcome.status === "ok" ? outcome.result : outcome).toEqual({ version: "v2", runsBefore: 3 });
      const lines = collector.ofType("log").map((event) => JSON.stringify(event.values));
      expect(lines).toEqual([JSON.stringify([{ t: "string", v: "v2 ran" }])]);
      expect(new Set(collector.events.map((entry) => entry.event.runId))).toEqual(new Set([outcome.runId]));
      const runs = await session.listRuns(100);
      expect(runs.length).toBe(runsBefore + 1);
      expect(await agent.run({})).toEqual({ version: "v2", runsBefore: 4 });
    } finally {
      client[Symbol.dispose]();
    }
  });

  it("called by name, is the agent of that name published last: another draft's publish is the very next call", async () => {
    const { client } = await connectNewWorkspace();
    try {
      const session = client.getSession();
      const named = (code: string) => gadget(code, { name: "shared-name" });
      const first = await session.createDraft({ files: named(`export default { async run() { return "first"; } };`) });
      const { agentId: firstId } = await session.publishDraft(first.id);
      const byName = client.getAgent("shared-name");
      for (let i = 0; i < 3; i++) expect(await byName.run({})).toBe("first");

      const second = await session.createDraft({
        files: named(`export default { async run() { return "second"; } };`),
      });
      const { agentId: secondId } = await session.publishDraft(second.id);
      expect(secondId).not.toBe(firstId);
      const outcome = await byName.runWithEvents({});
      expect(outcome).toMatchObject({ status: "ok", result: "second" });
      expect((await session.getRun(outcome.runId)).source).toEqual({ kind: "agent", agentId: secondId, version: 1 });
      // By id, each is still itself.
      expect(await client.getAgent(firstId).run({})).toBe("first");
    } finally {
      client[Symbol.dispose]();
    }
  });
});
