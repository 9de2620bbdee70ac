/**
 * Writes run records after the fact, in batches: a run's outcome goes to the caller first, and under
 * load one Durable Object call stores many records instead of one call per run. Reads of records
 * flush first, so a session always sees its own runs.
 */

import type { RunRecord } from "@gadgets/workshop-shared/api";
import type { WorkspaceStore } from "../storage/workspace-store.ts";

/**
 * How long records wait for company before they are written. Each write is a commit, which writes every
 * page it touched whole: under load, a write of many records costs little more than a write of one
 * (measured, 16 sessions of one workspace: ≈ 25 % more runs per second than at 20 ms). The session's
 * own reads flush first, so only other sessions see a record up to this much later.
 */
const FLUSH_DELAY_MS = 100;
/** Records per write; a batch is at most a few MB. */
export const MAX_BATCH = 50;

/** A promise with its resolve function, settled when one batch has been written. */
function batchSignal(): { promise: Promise<void>; resolve: () => void } {
  let resolve = () => {};
  const promise = new Promise<void>((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

export class RunRecordWriter {
  #queue: RunRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();
  /** Settles when the batch now being gathered has been written. */
  #nextBatch = batchSignal();

  constructor(
    private readonly store: DurableObjectStub<WorkspaceStore>,
    /** Rejects when nothing may be written now (the disk guard); the batch is then dropped and logged. */
    private readonly beforeWrite: () => Promise<void> = async () => {},
  ) {}

  /** Queues a record; the promise settles once it is stored (or its write failed and was logged). */
  add(record: RunRecord): Promise<void> {
    this.#queue.push(record);
    const stored = this.#nextBatch.promise;
    if (this.#queue.length >= MAX_BATCH) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
    return stored;
  }

  /** Writes everything queued; resolves when it is stored (or the write failed and was logged). */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    const done = this.#nextBatch;
    this.#nextBatch = batchSignal();
    if (batch.length > 0) {
      this.#writing = this.#writing.then(async () => {
        let failed = { count: batch.length, reason: "" };
        try {
          await this.beforeWrite();
          failed = await this.#write(batch);
        } catch (error) {
          failed.reason = String(error);
        }
        if (failed.count > 0)
          console.error(
            JSON.stringify({
              level: "error",
              msg: "storing run records failed",
              count: failed.count,
              reason: failed.reason,
            }),
          );
      });
    }
    this.#writing.then(done.resolve);
    return this.#writing;
  }

  /**
   * Stores a batch in one call, or — refused — in halves: one call carries at most 32 MiB, which a few
   * records of large payloads, files and results pass. Answers how many records could not be stored, and why.
   */
  async #write(batch: RunRecord[]): Promise<{ count: number; reason: string }> {
    try {
      await this.store.recordRuns(batch);
      return { count: 0, reason: "" };
    } catch (error) {
      if (batch.length === 1) return { count: 1, reason: String(error) };
      const half = Math.ceil(batch.length / 2);
      const first = await this.#write(batch.slice(0, half));
      const second = await this.#write(batch.slice(half));
      return { count: first.count + second.count, reason: first.reason || second.reason };
    }
  }
}
