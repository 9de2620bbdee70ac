import type { GadgetFile } from "@gadgets/workshop-shared/api";
import { MAX_DRAFTS_PER_WORKSPACE, WORKSPACE_QUOTA_BYTES } from "@gadgets/workshop-shared/limits";
import { byteLength } from "@gadgets/workshop-shared/validate";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { DraftTable, draftName } from "./draft-table.ts";
import { type SqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";
import { UsageTable } from "./usage-table.ts";

function gadget(name: string, code = "export default () => 1;"): GadgetFile[] {
  return [
    { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts" }) },
    { path: "index.ts", content: code },
  ];
}

describe("DraftTable", () => {
  let storage: SqliteStorage;
  let usage: UsageTable;
  let drafts: DraftTable;

  beforeEach(() => {
    storage = workspaceStorage();
    usage = new UsageTable(storage.sql);
    drafts = new DraftTable(storage.sql, usage);
  });
  afterEach(() => storage.close());

  it("creates a draft at version 1, named by its manifest, and charges its files to the quota", () => {
    const files = gadget("echo");
    const draft = drafts.create(files);
    expect(draft).toMatchObject({ name: "echo", version: 1, files });
    expect(drafts.get(draft.id)).toEqual(draft);
    const { files: _, ...summary } = draft;
    expect(drafts.list()).toEqual([summary]);
    expect(usage.bytes().drafts).toBe(byteLength(JSON.stringify(files)));
  });

  it("saves on the saved version and refuses a stale one as a conflict, overwriting nothing", () => {
    const draft = drafts.create(gadget("echo"));
    const saved = drafts.save(draft.id, 1, gadget("echo2", "export default () => 2;"));
    expect(saved).toMatchObject({ status: "saved", draft: { id: draft.id, name: "echo2", version: 2 } });

    const stale = drafts.save(draft.id, 1, gadget("echo3"));
    expect(stale).toMatchObject({ status: "conflict", current: { version: 2, name: "echo2" } });
    expect(stale.status === "conflict" && stale.message).toMatch(/based on version 1, the saved one is version 2/);
    expect(drafts.get(draft.id)).toMatchObject({ version: 2, name: "echo2" });
    expect(usage.bytes().drafts).toBe(byteLength(JSON.stringify(gadget("echo2", "export default () => 2;"))));
  });

  it("deletes a draft and frees its bytes; after that it is not found", () => {
    const draft = drafts.create(gadget("echo"));
    drafts.delete(draft.id);
    expect(usage.bytes().drafts).toBe(0);
    expect(drafts.list()).toEqual([]);
    expect(() => drafts.get(draft.id)).toThrow(/was not found in this workspace/);
    expect(() => drafts.mustExist(draft.id)).toThrow(/was not found/);
    expect(() => drafts.save(draft.id, 1, gadget("echo"))).toThrow(/was not found/);
  });

  it(`keeps ${MAX_DRAFTS_PER_WORKSPACE} drafts and refuses one more`, () => {
    for (let i = 0; i < MAX_DRAFTS_PER_WORKSPACE; i++) drafts.create(gadget(`d${i}`));
    expect(() => drafts.create(gadget("one-more"))).toThrow(/already has 500 drafts, the limit/);
    expect(drafts.list()).toHaveLength(MAX_DRAFTS_PER_WORKSPACE);
  });

  it("refuses a write that would pass the quota, but lets a full workspace shrink a draft", () => {
    const draft = drafts.create(gadget("echo", "x".repeat(1000)));
    // Fill the rest of the quota with bytes charged elsewhere.
    usage.grow("shares", WORKSPACE_QUOTA_BYTES - usage.usage().usedBytes);
    expect(() => drafts.create(gadget("more"))).toThrow(/storage quota is full/);
    expect(() => drafts.save(draft.id, 1, gadget("echo", "x".repeat(1001)))).toThrow(/storage quota is full/);
    expect(drafts.save(draft.id, 1, gadget("echo", "x"))).toMatchObject({ status: "saved" });
    expect(drafts.list()).toHaveLength(1);
  });
});

describe("draftName", () => {
  it("reads the name a broken manifest still holds, else calls the draft untitled", () => {
    expect(draftName(gadget("echo"))).toBe("echo");
    expect(draftName([{ path: "gadget.json", content: '{ "name": "half-typed", "entry": ' }])).toBe("half-typed");
    expect(draftName([{ path: "gadget.json", content: "{" }])).toBe("untitled");
    expect(draftName([])).toBe("untitled");
  });
});
