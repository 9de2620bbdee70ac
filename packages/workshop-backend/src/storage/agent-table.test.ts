import type { Draft, GadgetFile, TestStatus } from "@gadgets/workshop-shared/api";
import { byteLength } from "@gadgets/workshop-shared/validate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { AgentTable } from "./agent-table.ts";
import { TestStatusTable } from "./test-status-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";
import { UsageTable } from "./usage-table.ts";

function draft(version: number, manifest: object, extra: GadgetFile[] = []): Draft {
  return {
    id: "draft1",
    name: "echo",
    version,
    createdAt: 1,
    updatedAt: 1,
    files: [
      { path: "gadget.json", content: JSON.stringify(manifest) },
      { path: "index.ts", content: `export default () => ${version};` },
      ...extra,
    ],
  };
}

const echo = { name: "echo", entry: "index.ts", description: "Says it back", grants: { kv: true } };

const passed: TestStatus = { status: "passed", version: 2, at: 5, total: 1, passed: 1, failed: 0, cases: [] };

describe("AgentTable", () => {
  let storage: SqliteStorage;
  let usage: UsageTable;
  let agents: AgentTable;

  beforeEach(() => {
    storage = workspaceStorage();
    usage = new UsageTable(storage.sql);
    agents = new AgentTable(storage.sql, usage, new TestStatusTable(storage.sql));
  });
  afterEach(() => storage.close());

  it("publishes each version of a draft under one agent, and resolves the latest or a fixed one", () => {
    const first = agents.publish(draft(1, echo));
    const second = agents.publish(draft(2, echo));
    expect(first).toMatchObject({ name: "echo", version: 1, description: "Says it back", grants: { kv: true } });
    expect(second).toMatchObject({ agentId: first.agentId, version: 2 });

    expect(agents.resolve(first.agentId, undefined)).toMatchObject({
      agentId: first.agentId,
      draftId: "draft1",
      version: 2,
      meta: second,
    });
    expect(agents.resolve(first.agentId, 1)?.files).toEqual(draft(1, echo).files);
    expect(agents.resolveByName("echo", 1)).toMatchObject({ version: 1, meta: first });
    expect(agents.resolve(first.agentId, 3)).toBeUndefined();
    expect(agents.resolveByName("nobody", undefined)).toBeUndefined();
    expect(agents.publishedFrom("draft1")).toBe(true);
    expect(agents.publishedFrom("draft2")).toBe(false);
  });

  it("finds the agents an id or a name means: that one agent, or every agent of the name", () => {
    const first = agents.publish(draft(1, echo));
    const twin = agents.publish({ ...draft(1, echo), id: "draft2" });
    const other = agents.publish({ ...draft(1, { ...echo, name: "other" }), id: "draft3" });
    expect(agents.idsFor(first.agentId)).toEqual([first.agentId]);
    expect(agents.idsFor("echo").sort()).toEqual([first.agentId, twin.agentId].sort());
    expect(agents.idsFor("other")).toEqual([other.agentId]);
    expect(agents.idsFor("nobody")).toEqual([]);
  });

  it("carries the schemas a version's manifest declares, and none for a version that declares none", () => {
    const inputSchema = { type: "object", required: ["city"], properties: { city: { type: "string" } } };
    const outputSchema = { type: "number" };
    const typed = agents.publish(draft(1, { ...echo, inputSchema, outputSchema }));
    expect(typed).toMatchObject({ version: 1, inputSchema, outputSchema });
    expect(agents.resolve(typed.agentId, 1)?.meta).toEqual(typed);
    expect(agents.list()[0]).toMatchObject({ latestVersion: 1, inputSchema, outputSchema });

    const plain = agents.publish(draft(2, echo));
    expect(plain).not.toHaveProperty("inputSchema");
    expect(agents.resolve(typed.agentId, 2)?.meta).toEqual(plain);
    expect(agents.list()[0]).not.toHaveProperty("inputSchema");
    expect(agents.list()[0]).not.toHaveProperty("outputSchema");
    expect(agents.resolve(typed.agentId, 1)?.meta).toMatchObject({ inputSchema });
  });

  it("resolves the latest version published since it was last resolved (the kept copy never goes stale)", () => {
    const first = agents.publish(draft(1, echo));
    expect(agents.resolve(first.agentId, undefined)?.version).toBe(1);
    expect(agents.resolve(first.agentId, undefined)?.version).toBe(1);
    agents.publish(draft(2, echo));
    expect(agents.resolve(first.agentId, undefined)?.version).toBe(2);
    expect(agents.resolve(first.agentId, 1)?.version).toBe(1);
    // A fresh table over the same storage (the object restarted) finds the same.
    const restarted = new AgentTable(storage.sql, usage, new TestStatusTable(storage.sql));
    expect(restarted.resolve(first.agentId, undefined)?.version).toBe(2);
  });

  it("charges each version's files and grants to the quota", () => {
    const published = draft(1, echo);
    agents.publish(published);
    expect(usage.bytes().versions).toBe(
      byteLength(JSON.stringify(published.files)) + byteLength(JSON.stringify(echo.grants)),
    );
  });

  it("keeps the test results a version was published with", () => {
    const version = agents.publish(draft(2, echo), { version: 2, tests: passed });
    expect(version.tests).toEqual(passed);
    expect(agents.resolve(version.agentId, version.version)?.meta.tests).toEqual(passed);
    expect(agents.list()[0]?.tests).toEqual(passed);
  });

  it("publishes nothing when the draft was saved again while its tests ran", () => {
    expect(() => agents.publish(draft(3, echo), { version: 2, tests: passed })).toThrow(
      /was saved again \(version 3\) while the tests of version 2 ran; nothing was published/,
    );
    expect(agents.list()).toEqual([]);
    expect(usage.bytes().versions).toBe(0);
  });

  it("refuses a draft whose manifest is not valid", () => {
    expect(() => agents.publish(draft(1, { name: "echo", entry: "missing.ts" }))).toThrow(
      /Draft "echo" cannot be published: .*missing\.ts/,
    );
  });

  it("lists agents with their docs, cut to 64 KiB", () => {
    const readme = { path: "README.md", content: "d".repeat(70 * 1024) };
    agents.publish(draft(1, echo, [readme]));
    const [listed] = agents.list();
    expect(listed).toMatchObject({ name: "echo", latestVersion: 1, draftId: "draft1", grants: { kv: true } });
    expect(listed?.docs).toHaveLength(64 * 1024);
    expect(listed).not.toHaveProperty("tests");
  });
});
