/**
 * What a run of a workspace must do besides running, at the least, for the floor with duties
 * (floor-worker.ts): a Durable Object with SQLite storage that says which version of an agent is the
 * latest (a publish is seen by the very next call) and keeps the last runs' records (the run history),
 * one row each, written in batches and pruned to the newest 1,000 — the Workshop's own rules, with none
 * of its layout, checks or quota.
 */

import { DurableObject } from "cloudflare:workers";

/** As the Workshop keeps them: the last 1,000, pruned 50 at a time. */
const KEPT_RUNS = 1000;
const PRUNE_STEP = 50;

export class FloorStore extends DurableObject {
  /** Records kept, counted once and then tracked. */
  #count: number;

  constructor(...args: ConstructorParameters<typeof DurableObject>) {
    super(...args);
    const { sql } = this.ctx.storage;
    sql.exec("CREATE TABLE IF NOT EXISTS agents (name TEXT PRIMARY KEY, latest INTEGER NOT NULL)");
    sql.exec(
      "CREATE TABLE IF NOT EXISTS runs (id TEXT PRIMARY KEY, started_at INTEGER NOT NULL, record TEXT NOT NULL)",
    );
    sql.exec("CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at)");
    sql.exec("INSERT OR IGNORE INTO agents (name, latest) VALUES ('echo', 1)");
    this.#count = this.count();
  }

  latest(name: string): number | undefined {
    const [row] = this.ctx.storage.sql.exec("SELECT latest FROM agents WHERE name = ?", name).toArray();
    return row === undefined ? undefined : Number(row.latest);
  }

  /** How many records are kept. */
  count(): number {
    return Number(this.ctx.storage.sql.exec("SELECT COUNT(*) AS n FROM runs").toArray()[0]?.n ?? 0);
  }

  record(records: { runId: string; startedAt: number; text: string }[]): void {
    const { sql } = this.ctx.storage;
    for (const { runId, startedAt, text } of records)
      sql.exec("INSERT OR REPLACE INTO runs (id, started_at, record) VALUES (?, ?, ?)", runId, startedAt, text);
    this.#count += records.length;
    if (this.#count <= KEPT_RUNS + PRUNE_STEP) return;
    sql.exec(
      "DELETE FROM runs WHERE id IN (SELECT id FROM runs ORDER BY started_at ASC LIMIT ?)",
      this.#count - KEPT_RUNS,
    );
    this.#count = KEPT_RUNS;
  }
}
