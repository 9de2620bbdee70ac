import type { RunRecord } from "@gadgets/workshop-shared/api";
import {
  MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE,
  MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE,
  MAX_LIST_LIMIT,
  MAX_RUN_RECORD_BYTES_PER_WORKSPACE,
  MAX_RUN_RECORDS_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { migrate } from "./migrations.ts";
import { insertRunRowsV2, runRows } from "./run-rows.ts";
import { RunTable } from "./run-table.ts";
import { type SqliteStorage, sqliteStorage, workspaceStorage } from "./testing/sqlite-storage.ts";
import { UsageTable } from "./usage-table.ts";
import { WORKSPACE_MIGRATIONS } from "./workspace-schema.ts";

const timings = { queueMs: 0, buildMs: 1, runMs: 2, totalMs: 3 };

function record(n: number, payload: RunRecord["payload"] = { n }): RunRecord {
  const runId = `run${n}`;
  return {
    runId,
    source: { kind: "draft", draftId: "d1", version: 1 },
    name: "echo",
    status: "ok",
    startedAt: 1_000 + n,
    totalMs: 3,
    payload,
    files: [{ path: "index.ts", content: "export default (p) => p;" }],
    events: [
      { type: "log", runId, seq: 0, t: 1, level: "log", values: [{ t: "string", v: "hi" }] },
      { type: "end", runId, seq: 1, t: 2, outcome: { status: "ok", runId, result: n, timings } },
    ],
    droppedEvents: 0,
    outcome: { status: "ok", runId, result: n, timings },
  };
}

describe("RunTable", () => {
  let storage: SqliteStorage;
  let usage: UsageTable;
  let runs: RunTable;
  const count = () => storage.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM run_summaries").one().n;
  const storedBytes = () =>
    storage.sql.exec<{ n: number }>("SELECT COALESCE(SUM(bytes), 0) AS n FROM run_sizes").one().n;

  beforeEach(() => {
    storage = workspaceStorage();
    usage = new UsageTable(storage.sql);
    runs = new RunTable(storage.sql, usage, storage.transaction);
  });
  afterEach(() => {
    storage.close();
    vi.restoreAllMocks();
  });

  it("reads a record back as it was stored, and lists summaries newest first", () => {
    runs.record([record(1), record(2)]);
    expect(runs.get("run1")).toEqual(record(1));
    expect(runs.list(10).map((summary) => summary.runId)).toEqual(["run2", "run1"]);
    expect(runs.list(10)[0]).not.toHaveProperty("payload");
    expect(usage.bytes().records).toBe(storedBytes());
    expect(usage.bytes().records).toBeGreaterThan(0);
  });

  it("keeps a small record's parts in one row and a large one's in a row per part, and reads both back", () => {
    const parts = (runId: string) =>
      storage.sql
        .exec<{ part: string }>("SELECT part FROM run_parts WHERE run_id = ? ORDER BY part", runId)
        .toArray()
        .map((row) => row.part);
    const large = {
      ...record(2, "x".repeat(1024 * 1024)),
      files: [{ path: "big.ts", content: "y".repeat(1024 * 1024) }],
    };
    runs.record([record(1), large]);
    expect(parts("run1")).toEqual(["all"]);
    expect(parts("run2")).toEqual(["events", "files", "outcome", "payload"]);
    expect(runs.get("run1")).toEqual(record(1));
    expect(runs.get("run2")).toEqual(large);
    expect(usage.bytes().records).toBe(storedBytes());
    // Stored again in the other layout, nothing of the first one is left.
    runs.record([
      { ...large, runId: "run1" },
      { ...record(2), runId: "run2" },
    ]);
    expect(parts("run1")).toEqual(["events", "files", "outcome", "payload"]);
    expect(parts("run2")).toEqual(["all"]);
    expect(runs.get("run2")).toEqual({ ...record(2), runId: "run2" });
  });

  it("keeps a record's events under the row limit in bytes, not characters", () => {
    const base = record(3);
    // 1,000 lines of 1,000 three-byte characters: 1 M characters, 3 MB.
    const lines = Array.from({ length: 1000 }, (_, seq) => ({
      type: "log" as const,
      runId: "run3",
      seq,
      t: seq,
      level: "log" as const,
      values: [{ t: "string" as const, v: "語".repeat(1000) }],
    }));
    runs.record([{ ...base, events: [...lines, ...base.events.slice(1)] }]);
    const stored = runs.get("run3");
    const bytes = new TextEncoder().encode(JSON.stringify(stored.events)).byteLength;
    expect(bytes).toBeLessThanOrEqual(1_500_000);
    expect(stored.events.length).toBeGreaterThan(400);
    expect(stored.events.at(-1)?.type).toBe("end");
    expect(stored.droppedEvents).toBe(1000 - (stored.events.length - 1));
  });

  it("splits a part past a row's size over rows, each within the limit, and reads it back", () => {
    // 1 MiB of characters JSON escapes six bytes each: a files part of ≈ 6 MB, and a payload of pairs.
    const escaped = "\u0001".repeat(1024 * 1024);
    const pairs = "😀".repeat(400_000);
    const large = { ...record(4, pairs), files: [{ path: "bin.ts", content: escaped }] };
    runs.record([large]);
    const rows = storage.sql
      .exec<{ part: string; bytes: number }>(
        "SELECT part, length(CAST(value AS BLOB)) AS bytes FROM run_parts WHERE run_id = ?",
        "run4",
      )
      .toArray();
    expect(rows.filter((row) => row.part.startsWith("files~")).length).toBeGreaterThan(3);
    expect(rows.filter((row) => row.part.startsWith("payload~")).length).toBeGreaterThan(1);
    for (const row of rows) expect(row.bytes).toBeLessThanOrEqual(1_500_000);
    expect(runs.get("run4")).toEqual(large);
    expect(usage.bytes().records).toBe(storedBytes());
  });

  it("charges a record stored again once, and counts it once", () => {
    runs.record([record(1)]);
    const once = usage.bytes().records;
    runs.record([record(1), record(1)]);
    expect(usage.bytes().records).toBe(once);
    expect(usage.bytes().records).toBe(storedBytes());
    expect(count()).toBe(1);
  });

  it("stores a batch in one transaction, and a record stored again in a new layout keeps none of its old rows", () => {
    const work = vi.fn(storage.transaction);
    const batched = new RunTable(storage.sql, usage, work);
    batched.record([record(1), record(2), record(3)]);
    expect(work).toHaveBeenCalledTimes(1);
    batched.record([record(1, "x".repeat(1_600_000))]);
    const parts = storage.sql
      .exec<{ part: string }>("SELECT part FROM run_parts WHERE run_id = 'run1'")
      .toArray()
      .map((row) => row.part);
    expect(parts).not.toContain("all");
    expect(batched.get("run1").payload).toHaveLength(1_600_000);
    expect(usage.bytes().records).toBe(storedBytes());
  });

  it("says a run that is not kept was not found", () => {
    expect(() => runs.get("nope")).toThrow(/Run nope was not found in this workspace/);
  });

  it(`lists at most ${MAX_LIST_LIMIT} summaries`, () => {
    runs.record(Array.from({ length: MAX_LIST_LIMIT + 1 }, (_, n) => record(n)));
    expect(runs.list(MAX_LIST_LIMIT + 50)).toHaveLength(MAX_LIST_LIMIT);
  });

  it(`prunes to the newest ${MAX_RUN_RECORDS_PER_WORKSPACE} once 50 more have piled up`, () => {
    const batch = (from: number, length: number) => Array.from({ length }, (_, i) => record(from + i));
    runs.record(batch(0, MAX_RUN_RECORDS_PER_WORKSPACE + 50));
    expect(count()).toBe(MAX_RUN_RECORDS_PER_WORKSPACE + 50);
    runs.record(batch(MAX_RUN_RECORDS_PER_WORKSPACE + 50, 1));
    expect(count()).toBe(MAX_RUN_RECORDS_PER_WORKSPACE);
    expect(() => runs.get("run50")).toThrow(/not found/);
    expect(runs.get("run51").runId).toBe("run51");
    expect(usage.bytes().records).toBe(storedBytes());
  });

  it("keeps records within their share of the quota by pruning the oldest", () => {
    const big = (n: number) => record(n, "x".repeat(1024 * 1024));
    for (let n = 0; n < 20; n++) runs.record([big(n)]);
    expect(usage.bytes().records).toBeLessThanOrEqual(MAX_RUN_RECORD_BYTES_PER_WORKSPACE);
    expect(usage.bytes().records).toBe(storedBytes());
    expect(runs.get("run19").payload).toHaveLength(1024 * 1024);
    expect(() => runs.get("run0")).toThrow(/not found/);
  });

  it("prunes within one batch as it goes, the usage kept exact record by record", () => {
    const big = (n: number) => record(n, "x".repeat(1024 * 1024));
    runs.record(Array.from({ length: 20 }, (_, n) => big(n)));
    expect(usage.bytes().records).toBeLessThanOrEqual(MAX_RUN_RECORD_BYTES_PER_WORKSPACE);
    expect(usage.bytes().records).toBe(storedBytes());
    expect(runs.get("run19").payload).toHaveLength(1024 * 1024);
    expect(() => runs.get("run0")).toThrow(/not found/);
  });

  it(`keeps endpoint runs' records to ${MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE} and half the bytes, pruning their own oldest: strangers never push out the workspace's runs`, () => {
    const own = Array.from({ length: 400 }, (_, n) => record(n));
    runs.record(own);
    const hook = (n: number, payload: RunRecord["payload"] = { n }) => ({
      ...record(n, payload),
      via: "http" as const,
    });
    runs.record(Array.from({ length: 700 }, (_, n) => hook(1000 + n)));
    const endpointRuns = () => runs.list(MAX_LIST_LIMIT, { via: "http" }).length;
    expect(count()).toBe(400 + MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE);
    expect(runs.get("run0").runId).toBe("run0");
    expect(() => runs.get("run1000")).toThrow(/not found/);
    expect(runs.get("run1699").runId).toBe("run1699");
    // By bytes too: 40 bodies of a megabyte leave the workspace's own records where they were.
    for (let n = 0; n < 40; n++) runs.record([hook(2000 + n, "x".repeat(1024 * 1024))]);
    const endpointBytes = storage.sql
      .exec<{ n: number }>(
        "SELECT COALESCE(SUM(s.bytes), 0) AS n FROM run_summaries r JOIN run_sizes s ON s.run_id = r.id WHERE r.via = 'http'",
      )
      .one().n;
    expect(endpointBytes).toBeLessThanOrEqual(MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE);
    expect(endpointRuns()).toBeGreaterThan(0);
    expect(own.every((kept) => runs.get(kept.runId).runId === kept.runId)).toBe(true);
    expect(usage.bytes().records).toBe(storedBytes());
  });

  it("refuses only the record the workspace has no room for, and stores the rest of the batch", () => {
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    usage.grow("shares", usage.usage().quotaBytes - 5_000);
    runs.record([record(1, "x".repeat(10_000)), record(2)]);
    expect(runs.list(10).map((summary) => summary.runId)).toEqual(["run2"]);
    expect(usage.bytes().records).toBe(storedBytes());
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("storing a run record failed"));
  });
});

/** Record n of the agent `agentId` (or of a draft), started `via`. */
function startedBy(n: number, agentId: string | undefined, via?: RunRecord["via"]): RunRecord {
  const base = record(n);
  return {
    ...base,
    source: agentId ? { kind: "agent", agentId, version: 1 } : base.source,
    ...(via ? { via } : {}),
    ...(via === "http" ? { trigger: { kind: "http", method: "POST", path: "/hook", status: 200 } } : {}),
  };
}

describe("RunTable's filter (the invocation log)", () => {
  let storage: SqliteStorage;
  let runs: RunTable;
  const ids = (list: { runId: string }[]) => list.map((summary) => summary.runId);

  beforeEach(() => {
    storage = workspaceStorage();
    runs = new RunTable(storage.sql, new UsageTable(storage.sql), storage.transaction);
    runs.record([
      startedBy(1, "a1"),
      startedBy(2, "a1", "mcp"),
      startedBy(3, "a2", "http"),
      startedBy(4, undefined, "rpc"),
      startedBy(5, "a1", "http"),
      startedBy(6, "a3", "schedule"),
    ]);
  });
  afterEach(() => storage.close());

  it("narrows to one agent, to many agents, and to how runs started, newest first", () => {
    expect(ids(runs.list(10, { agentIds: ["a1"] }))).toEqual(["run5", "run2", "run1"]);
    expect(ids(runs.list(10, { agentIds: ["a1", "a3"] }))).toEqual(["run6", "run5", "run2", "run1"]);
    // A record without `via` was started over RPC.
    expect(ids(runs.list(10, { via: "rpc" }))).toEqual(["run4", "run1"]);
    expect(ids(runs.list(10, { via: "http" }))).toEqual(["run5", "run3"]);
    expect(ids(runs.list(10, { agentIds: ["a1"], via: "http" }))).toEqual(["run5"]);
    expect(ids(runs.list(1, { agentIds: ["a1"] }))).toEqual(["run5"]);
    expect(runs.list(10, { agentIds: [] })).toEqual([]);
    expect(runs.list(10, { agentIds: ["a1"], via: "schedule" })).toEqual([]);
    expect(runs.list(10, { via: "http" })[1]?.trigger).toEqual({
      kind: "http",
      method: "POST",
      path: "/hook",
      status: 200,
    });
  });

  it("narrows to one draft's runs (its own code's, never an agent's published from it), with the other filters", () => {
    const ofDraft = (n: number, draftId: string): RunRecord => ({
      ...startedBy(n, undefined),
      source: { kind: "draft", draftId, version: n },
    });
    runs.record([ofDraft(7, "d2"), ofDraft(8, "d3"), { ...ofDraft(9, "d2"), via: "mcp" }]);
    expect(ids(runs.list(10, { draftId: "d2" }))).toEqual(["run9", "run7"]);
    expect(ids(runs.list(1, { draftId: "d2" }))).toEqual(["run9"]);
    expect(ids(runs.list(10, { draftId: "d2", via: "rpc" }))).toEqual(["run7"]);
    expect(ids(runs.list(10, { draftId: "d1" }))).toEqual(["run4"]);
    expect(runs.list(10, { draftId: "nope" })).toEqual([]);
    expect(runs.list(10, { draftId: "d2", agentIds: ["a1"] })).toEqual([]);
  });

  it("finds an agent's runs and a way's by their indexes, not by reading every summary", () => {
    const plan = (query: string, ...bindings: SqlStorageValue[]) =>
      storage.sql
        .exec<{ detail: string }>(`EXPLAIN QUERY PLAN ${query}`, ...bindings)
        .toArray()
        .map((row) => row.detail)
        .join("\n");
    expect(plan("SELECT summary FROM run_summaries WHERE via = ? ORDER BY started_at DESC LIMIT 5", "http")).toContain(
      "run_summaries_by_via",
    );
    expect(
      plan(
        "SELECT summary FROM run_summaries WHERE agent_id IN (SELECT value FROM json_each(?)) ORDER BY started_at DESC LIMIT 5",
        '["a1"]',
      ),
    ).toContain("run_summaries_by_agent");
  });

  it("fills the columns of records stored before them from their summaries", () => {
    const old = sqliteStorage();
    try {
      migrate(
        old.sql,
        old.transaction,
        WORKSPACE_MIGRATIONS.filter((migration) => migration.version <= 5),
      );
      for (const stored of [startedBy(1, "a1"), startedBy(2, "a1", "mcp"), startedBy(3, undefined)])
        insertRunRowsV2(old.sql, stored.runId, stored.startedAt, runRows(stored));
      migrate(old.sql, old.transaction, WORKSPACE_MIGRATIONS);
      const table = new RunTable(old.sql, new UsageTable(old.sql), old.transaction);
      expect(ids(table.list(10, { agentIds: ["a1"] }))).toEqual(["run2", "run1"]);
      expect(ids(table.list(10, { via: "rpc" }))).toEqual(["run3", "run1"]);
      expect(ids(table.list(10, { via: "mcp" }))).toEqual(["run2"]);
      expect(table.get("run2")).toEqual(startedBy(2, "a1", "mcp"));
    } finally {
      old.close();
    }
  });
});
