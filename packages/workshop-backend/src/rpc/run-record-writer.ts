/**
 * Writes run records after the fact, in batches: a run's outcome goes to the caller first, and under
 * load one Durable Object call stores many records instead of one call per run. Reads of records
 * flush first, so a session always sees its own runs.
 */

import type { RunRecord } from "@gadgets/workshop-shared/api";
import type { WorkspaceStore } from "../storage/workspace-store.ts";

/** How long records wait for company before they are written. */
const FLUSH_DELAY_MS = 20;
/** Records per write; a batch is at most a few MB. */
const MAX_BATCH = 50;

export class RunRecordWriter {
  #queue: RunRecord[] = [];
  #timer: ReturnType<typeof setTimeout> | undefined;
  #writing: Promise<void> = Promise.resolve();

  constructor(
    private readonly store: DurableObjectStub<WorkspaceStore>,
    /** Rejects when nothing may be written now (the disk guard); the batch is then dropped and logged. */
    private readonly beforeWrite: () => Promise<void> = async () => {},
  ) {}

  add(record: RunRecord): void {
    this.#queue.push(record);
    if (this.#queue.length >= MAX_BATCH) void this.flush();
    else this.#timer ??= setTimeout(() => void this.flush(), FLUSH_DELAY_MS);
  }

  /** Writes everything queued; resolves when it is stored (or the write failed and was logged). */
  flush(): Promise<void> {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    const batch = this.#queue;
    this.#queue = [];
    if (batch.length > 0) {
      this.#writing = this.#writing.then(() =>
        this.beforeWrite()
          .then(() => this.store.recordRuns(batch))
          .catch((error: unknown) => {
            console.error(
              JSON.stringify({
                level: "error",
                msg: "storing run records failed",
                count: batch.length,
                reason: String(error),
              }),
            );
          }),
      );
    }
    return this.#writing;
  }
}
