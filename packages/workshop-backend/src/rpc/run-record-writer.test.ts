import type { RunRecord } from "@gadgets/workshop-shared/api";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { MAX_BATCH, RunRecordWriter } from "./run-record-writer.ts";

const record = (runId: string) => ({ runId }) as RunRecord;

/** `refuse`: which batches the store throws on (all of them, or those longer than a number of records). */
function fakeStore(refuse: boolean | number = false) {
  const writes: string[][] = [];
  let calls = 0;
  const store = {
    recordRuns: async (records: RunRecord[]) => {
      calls++;
      if (refuse === true) throw new Error("disk on fire");
      if (refuse !== false && records.length > refuse) throw new Error("message too large");
      writes.push(records.map((r) => r.runId));
    },
  } as unknown as DurableObjectStub<WorkspaceStore>;
  return { store, writes, calls: () => calls };
}

describe("RunRecordWriter", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it("writes the records of one moment in one call, and says when each is stored", async () => {
    const { store, writes } = fakeStore();
    const writer = new RunRecordWriter(store);
    let stored = 0;
    for (const id of ["a", "b", "c"]) void writer.add(record(id)).then(() => stored++);
    await vi.advanceTimersByTimeAsync(10);
    expect(writes).toEqual([]);
    await vi.advanceTimersByTimeAsync(200);
    expect(writes).toEqual([["a", "b", "c"]]);
    expect(stored).toBe(3);
  });

  it("writes at once when a read flushes, or when a batch is full", async () => {
    const { store, writes } = fakeStore();
    const writer = new RunRecordWriter(store);
    void writer.add(record("a"));
    await writer.flush();
    expect(writes).toEqual([["a"]]);
    for (let i = 0; i < MAX_BATCH; i++) void writer.add(record(`r${i}`));
    await vi.advanceTimersByTimeAsync(0);
    expect(writes[1]).toHaveLength(MAX_BATCH);
  });

  it("logs a write that failed, and neither rejects nor stops later writes", async () => {
    const failing = fakeStore(true);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const writer = new RunRecordWriter(failing.store);
    const stored = writer.add(record("a"));
    await vi.advanceTimersByTimeAsync(200);
    await expect(stored).resolves.toBeUndefined();
    expect(errors.mock.calls[0]?.[0]).toMatch(/storing run records failed.*"count":1/);
  });

  it("stores a batch the store refuses whole in smaller parts, every record once, in order", async () => {
    const { store, writes } = fakeStore(4);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const writer = new RunRecordWriter(store);
    const ids = Array.from({ length: 10 }, (_, i) => `r${i}`);
    const stored = Promise.all(ids.map((id) => writer.add(record(id))));
    await vi.advanceTimersByTimeAsync(200);
    await stored;
    expect(writes.flat()).toEqual(ids);
    expect(Math.max(...writes.map((write) => write.length))).toBeLessThanOrEqual(4);
    expect(errors).not.toHaveBeenCalled();
  });

  it("logs once, with how many, the records a failing store refuses one by one", async () => {
    const failing = fakeStore(true);
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const writer = new RunRecordWriter(failing.store);
    for (const id of ["a", "b", "c", "d"]) void writer.add(record(id));
    await writer.flush();
    expect(errors).toHaveBeenCalledTimes(1);
    expect(errors.mock.calls[0]?.[0]).toMatch(/storing run records failed.*"count":4.*disk on fire/);
    // Halves down to each record: 4 + 2 + 1 calls.
    expect(failing.calls()).toBe(7);
  });

  it("drops a batch the disk guard refuses, and says so", async () => {
    const { store, writes } = fakeStore();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const writer = new RunRecordWriter(store, async () => {
      throw new Error("disk nearly full");
    });
    void writer.add(record("a"));
    await writer.flush();
    expect(writes).toEqual([]);
    expect(errors.mock.calls[0]?.[0]).toMatch(/disk nearly full/);
  });
});
