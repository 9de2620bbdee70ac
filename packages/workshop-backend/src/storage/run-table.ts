/**
 * A workspace's run records, laid out by run-rows.ts: kept for the last runs only, and within their own
 * share of the quota (records are history, not data), the oldest pruned to make room.
 */

import type { RunRecord, RunSummary, RunVia } from "@gadgets/workshop-shared/api";
import {
  MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE,
  MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE,
  MAX_LIST_LIMIT,
  MAX_RUN_RECORD_BYTES_PER_WORKSPACE,
  MAX_RUN_RECORDS_PER_WORKSPACE,
  WORKSPACE_QUOTA_BYTES,
} from "@gadgets/workshop-shared/limits";
import { USAGE_CATEGORIES, type UsageCategory } from "./quota.ts";
import { insertRunRows, partsFromRows, runRows } from "./run-rows.ts";
import type { UsageTable } from "./usage-table.ts";
import { storeError } from "./coded-errors.ts";

/** What `list` narrows to: runs of these agents (none: no run), of this draft, started this way. */
export interface RunFilter {
  agentIds?: readonly string[];
  draftId?: string;
  via?: RunVia;
}

/** Records beyond the cap are deleted once this many have piled up. */
const RUN_PRUNE_STEP = 50;
/** Oldest records deleted at a time when a new one needs bytes. */
const RECORD_ROOM_STEP = 10;

export class RunTable {
  /** Rows in `run_summaries`, counted once and then tracked. */
  #count: number | undefined;
  /** Records of endpoint runs and their bytes, counted once and then tracked. */
  #endpointRuns: { count: number; bytes: number } | undefined;
  /**
   * Bytes of the batch's records not yet added to the usage table: added once per batch, or before a
   * prune subtracts (the table's count never goes below 0, so the order matters).
   */
  #uncharged = 0;

  constructor(
    private readonly sql: SqlStorage,
    private readonly usage: UsageTable,
    /** Runs `work` in one transaction (the Durable Object's `transactionSync`). */
    private readonly transaction: (work: () => void) => void,
  ) {}

  /**
   * Stores a batch in one transaction: locally the workspace's object shares the Worker's thread, and each
   * write's commit holds it for milliseconds, so statements and commits per record are what a warm run's
   * p99 pays. Should any record fail, the batch is rolled back and stored record by record instead: one
   * that cannot be stored does not take the others with it.
   */
  record(records: RunRecord[]): void {
    let stored = 0;
    try {
      this.transaction(() => {
        stored = this.#recordAll(records);
      });
    } catch {
      // What the rolled-back batch counted is gone with it.
      this.#count = undefined;
      this.#endpointRuns = undefined;
      this.#uncharged = 0;
      stored = this.#recordEach(records);
    }
    this.#count ??= this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM run_summaries").one().n - stored;
    this.#count += stored;
    // Pruning in steps keeps the COUNT and DELETE off most writes.
    if (this.#count > MAX_RUN_RECORDS_PER_WORKSPACE + RUN_PRUNE_STEP)
      this.#deleteOldest(this.#count - MAX_RUN_RECORDS_PER_WORKSPACE);
  }

  /** Stores every record (the caller's transaction keeps them together); answers how many are new. */
  #recordAll(records: RunRecord[]): number {
    const usage = this.usage.bytes();
    // One read for the batch of the runs already recorded (rare: a record stored again replaces it).
    const earlier = new Map(
      this.sql
        .exec<{ run_id: string; bytes: number }>(
          "SELECT run_id, bytes FROM run_sizes WHERE run_id IN (SELECT value FROM json_each(?))",
          JSON.stringify(records.map((record) => record.runId)),
        )
        .toArray()
        .map((row) => [row.run_id, row.bytes] as const),
    );
    let stored = 0;
    for (const record of records) {
      const before = earlier.get(record.runId);
      const bytes = this.#recordOne(record, usage, before);
      earlier.set(record.runId, bytes);
      this.#uncharged += bytes - (before ?? 0);
      if (before === undefined) stored++;
    }
    this.#chargeStored();
    return stored;
  }

  /** Stores each record in a transaction of its own, logging those that cannot be; answers how many are new. */
  #recordEach(records: RunRecord[]): number {
    let stored = 0;
    // Read once and kept up to date here: nothing else writes while this synchronous call runs.
    let usage: Record<UsageCategory, number> | undefined;
    for (const record of records) {
      try {
        usage ??= this.usage.bytes();
        const known = usage;
        let added = false;
        this.transaction(() => {
          const before = this.sql
            .exec<{ bytes: number }>("SELECT bytes FROM run_sizes WHERE run_id = ?", record.runId)
            .toArray()[0]?.bytes;
          const bytes = this.#recordOne(record, known, before);
          this.usage.grow("records", bytes - (before ?? 0));
          added = before === undefined;
        });
        if (added) stored++;
      } catch (error) {
        // A rolled-back record leaves the usage as it was; read it again rather than guess.
        usage = undefined;
        this.#endpointRuns = undefined;
        console.error(
          JSON.stringify({
            level: "error",
            msg: "storing a run record failed",
            runId: record.runId,
            reason: String(error),
          }),
        );
      }
    }
    return stored;
  }

  /** The newest runs first, narrowed by the indexed columns (run-rows.ts) when a filter is given. */
  list(limit: number, filter: RunFilter = {}): RunSummary[] {
    const where: string[] = [];
    const bindings: SqlStorageValue[] = [];
    if (filter.agentIds) {
      if (filter.agentIds.length === 0) return [];
      // One binding for any number of ids: a name may be shared by many agents.
      where.push("agent_id IN (SELECT value FROM json_each(?))");
      bindings.push(JSON.stringify(filter.agentIds));
    }
    if (filter.draftId) {
      // Read from the summary, not an indexed column: the IDE asks it of one draft at a time, and the
      // table holds at most MAX_RUN_RECORDS_PER_WORKSPACE (+ a prune step) rows to look through.
      where.push("json_extract(summary, '$.source.kind') = 'draft' AND json_extract(summary, '$.source.draftId') = ?");
      bindings.push(filter.draftId);
    }
    if (filter.via) {
      where.push("via = ?");
      bindings.push(filter.via);
    }
    const rows = this.sql
      .exec<{ summary: string }>(
        `SELECT summary FROM run_summaries ${where.length > 0 ? `WHERE ${where.join(" AND ")} ` : ""}ORDER BY started_at DESC LIMIT ?`,
        ...bindings,
        Math.min(limit, MAX_LIST_LIMIT),
      )
      .toArray();
    return rows.map((row) => JSON.parse(row.summary) as RunSummary);
  }

  get(runId: string): RunRecord {
    const summary = this.sql
      .exec<{ summary: string }>("SELECT summary FROM run_summaries WHERE id = ?", runId)
      .toArray()[0];
    if (!summary)
      throw storeError(
        "NOT_FOUND",
        `Run ${runId} was not found in this workspace (records are kept for the last ${MAX_RUN_RECORDS_PER_WORKSPACE} runs).`,
      );
    const parts = partsFromRows(
      this.sql
        .exec<{ part: string; value: string }>("SELECT part, value FROM run_parts WHERE run_id = ?", runId)
        .toArray(),
    );
    const events = parts.events ?? { events: [], droppedEvents: 0 };
    return {
      ...(JSON.parse(summary.summary) as RunSummary),
      payload: parts.payload ?? null,
      files: parts.files ?? [],
      events: events.events,
      droppedEvents: events.droppedEvents,
      outcome: parts.outcome as RunRecord["outcome"],
      ...(parts.trace ? { trace: parts.trace } : {}),
    };
  }

  /**
   * Stores one record in place of `earlier` bytes of an earlier record of the run (none: a new run);
   * `usage` is the workspace's usage now, updated in place. Answers the record's bytes; the caller
   * charges them to the usage table.
   */
  #recordOne(record: RunRecord, usage: Record<UsageCategory, number>, earlier: number | undefined): number {
    const rows = runRows(record);
    // A record stored again replaces the earlier one, whose bytes are no longer charged.
    if (earlier !== undefined) this.sql.exec("DELETE FROM run_sizes WHERE run_id = ?", record.runId);
    usage.records -= earlier ?? 0;
    if (rows.via === "http") this.#makeEndpointRoom(rows.bytes - (earlier ?? 0), usage);
    if (!this.#makeRoom(rows.bytes, usage))
      throw storeError(
        "LIMIT_REACHED",
        `the workspace's storage quota has no room for a ${rows.bytes}-byte run record`,
      );
    insertRunRows(this.sql, record.runId, record.startedAt, rows, earlier !== undefined);
    this.sql.exec("INSERT INTO run_sizes (run_id, bytes) VALUES (?, ?)", record.runId, rows.bytes);
    usage.records += rows.bytes;
    if (rows.via === "http" && this.#endpointRuns) {
      this.#endpointRuns.count += earlier === undefined ? 1 : 0;
      this.#endpointRuns.bytes += rows.bytes - (earlier ?? 0);
    }
    return rows.bytes;
  }

  /** Keeps endpoint runs' records within their share, pruning their own oldest for one more of `bytes`. */
  #makeEndpointRoom(bytes: number, usage: Record<UsageCategory, number>): void {
    for (;;) {
      this.#endpointRuns ??= this.sql
        .exec<{ count: number; bytes: number }>(
          "SELECT COUNT(*) AS count, COALESCE(SUM(s.bytes), 0) AS bytes FROM run_summaries r JOIN run_sizes s ON s.run_id = r.id WHERE r.via = 'http'",
        )
        .one();
      const { count, bytes: held } = this.#endpointRuns;
      if (count === 0) return;
      if (count < MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE && held + bytes <= MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE)
        return;
      usage.records = Math.max(0, usage.records - this.#deleteOldest(RECORD_ROOM_STEP, "http"));
    }
  }

  /**
   * Makes room for a record of `bytes`: records stay within their own share of the quota, and the
   * workspace within its quota, by pruning the oldest records. False when even that cannot make room.
   */
  #makeRoom(bytes: number, usage: Record<UsageCategory, number>): boolean {
    for (;;) {
      const total = USAGE_CATEGORIES.reduce((sum, category) => sum + usage[category], 0);
      if (usage.records + bytes <= MAX_RUN_RECORD_BYTES_PER_WORKSPACE && total + bytes <= WORKSPACE_QUOTA_BYTES)
        return true;
      if (this.sql.exec("SELECT 1 FROM run_summaries LIMIT 1").toArray().length === 0) return false;
      usage.records = Math.max(0, usage.records - this.#deleteOldest(RECORD_ROOM_STEP));
    }
  }

  #chargeStored(): void {
    this.usage.grow("records", this.#uncharged);
    this.#uncharged = 0;
  }

  /**
   * Deletes the `count` oldest run records (of those started `via`, when given), and their bytes from
   * the usage; returns the bytes freed.
   */
  #deleteOldest(count: number, via?: RunVia): number {
    const oldest = `SELECT id FROM run_summaries ${via ? "WHERE via = ? " : ""}ORDER BY started_at ASC LIMIT ?`;
    const bindings: SqlStorageValue[] = via ? [via, count] : [count];
    const freed = this.sql
      .exec<{ n: number }>(
        `SELECT COALESCE(SUM(bytes), 0) AS n FROM run_sizes WHERE run_id IN (${oldest})`,
        ...bindings,
      )
      .one().n;
    this.sql.exec(`DELETE FROM run_parts WHERE run_id IN (${oldest})`, ...bindings);
    this.sql.exec(`DELETE FROM run_sizes WHERE run_id IN (${oldest})`, ...bindings);
    this.sql.exec(`DELETE FROM run_summaries WHERE id IN (${oldest})`, ...bindings);
    this.#chargeStored();
    this.usage.grow("records", -freed);
    this.#count = undefined;
    this.#endpointRuns = undefined;
    return freed;
  }
}
