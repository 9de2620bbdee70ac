/**
 * The workspace database's schema as the list of steps that built it. Databases written before steps
 * were counted are at version 0; every step is written to be safe on them (IF NOT EXISTS, data moved
 * rather than dropped), so an old workspace comes up to date with all its data.
 */

import type { RunRecord } from "@gadgets/workshop-shared/api";
import { KV_ENTRY_OVERHEAD_BYTES } from "@gadgets/workshop-shared/limits";
import type { Migration } from "./migrations.ts";
import { USAGE_CATEGORIES, type UsageCategory } from "./quota.ts";
import { insertRunRowsV2, runRows } from "./run-rows.ts";

const hasTable = (sql: SqlStorage, name: string) =>
  sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", name).toArray().length > 0;

/** Counts usage from the data itself, for a workspace stored before usage was tracked. */
export function recountUsage(sql: SqlStorage): void {
  const sum = (query: string, ...bindings: number[]) => sql.exec<{ n: number }>(query, ...bindings).one().n;
  sql.exec(
    "INSERT OR REPLACE INTO run_sizes (run_id, bytes) SELECT run_id, SUM(length(CAST(value AS BLOB))) FROM run_parts GROUP BY run_id",
  );
  const counted: Record<UsageCategory, number> = {
    drafts: sum("SELECT COALESCE(SUM(length(CAST(files AS BLOB))), 0) AS n FROM drafts"),
    versions: sum(
      "SELECT COALESCE(SUM(length(CAST(files AS BLOB)) + length(CAST(grants AS BLOB))), 0) AS n FROM agent_versions",
    ),
    records: sum("SELECT COALESCE(SUM(bytes), 0) AS n FROM run_sizes"),
    kv: sum(
      "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ?), 0) AS n FROM kv",
      KV_ENTRY_OVERHEAD_BYTES,
    ),
    shares: sum("SELECT COALESCE(SUM(bytes), 0) AS n FROM shares"),
    // Counted from step 10 on; a workspace recounted at step 3 has none yet.
    packages: hasTable(sql, "package_charges") ? sum("SELECT COALESCE(SUM(bytes), 0) AS n FROM package_charges") : 0,
  };
  for (const category of USAGE_CATEGORIES)
    sql.exec("INSERT OR REPLACE INTO usage (category, bytes) VALUES (?, ?)", category, counted[category]);
}

export const WORKSPACE_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    what: "workspace metadata, drafts, published agents and their versions, kv, aggregated errors",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS drafts (
  id TEXT PRIMARY KEY, name TEXT NOT NULL, version INTEGER NOT NULL, files TEXT NOT NULL,
  created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS agents (
  id TEXT PRIMARY KEY, draft_id TEXT NOT NULL UNIQUE, name TEXT NOT NULL, description TEXT NOT NULL,
  latest_version INTEGER NOT NULL, updated_at INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS agent_versions (
  agent_id TEXT NOT NULL, version INTEGER NOT NULL, name TEXT NOT NULL, description TEXT NOT NULL,
  files TEXT NOT NULL, grants TEXT NOT NULL, published_at INTEGER NOT NULL, PRIMARY KEY (agent_id, version));
CREATE TABLE IF NOT EXISTS kv (scope TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (scope, key));
CREATE TABLE IF NOT EXISTS errors (
  fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, count INTEGER NOT NULL,
  first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, context TEXT NOT NULL, stack TEXT NOT NULL);
`),
  },
  {
    version: 2,
    what: "run records in parts (a summary row and one row per part); records of the one-row `runs` table moved over",
    up: (sql) => {
      sql.exec(`
CREATE TABLE IF NOT EXISTS run_summaries (id TEXT PRIMARY KEY, summary TEXT NOT NULL, started_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS run_summaries_by_start ON run_summaries (started_at);
CREATE TABLE IF NOT EXISTS run_parts (run_id TEXT NOT NULL, part TEXT NOT NULL, value TEXT NOT NULL, PRIMARY KEY (run_id, part));
`);
      if (!hasTable(sql, "runs")) return;
      for (const row of sql.exec<{ id: string; record: string; started_at: number }>(
        "SELECT id, record, started_at FROM runs",
      )) {
        const record = JSON.parse(row.record) as RunRecord;
        insertRunRowsV2(sql, row.id, row.started_at, runRows({ ...record, events: record.events ?? [] }));
      }
      sql.exec("DROP INDEX IF EXISTS runs_by_start");
      sql.exec("DROP TABLE runs");
    },
  },
  {
    version: 3,
    what: "storage quota: bytes per category, per run record and per share made, counted from the data",
    up: (sql) => {
      sql.exec(`
CREATE TABLE IF NOT EXISTS usage (category TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS run_sizes (run_id TEXT PRIMARY KEY, bytes INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS shares (id TEXT PRIMARY KEY, kind TEXT NOT NULL, bytes INTEGER NOT NULL, created_at INTEGER NOT NULL);
`);
      recountUsage(sql);
    },
  },
  {
    version: 4,
    what: "test results: each draft's last test run and the results each agent version was published with",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS draft_tests (draft_id TEXT PRIMARY KEY, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agent_version_tests (
  agent_id TEXT NOT NULL, version INTEGER NOT NULL, status TEXT NOT NULL, PRIMARY KEY (agent_id, version));
`),
  },
  {
    version: 5,
    what: "API keys: each key's hash (never the key), name, scope, the agents it is limited to, when made and last used",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS api_keys (
  key_id TEXT PRIMARY KEY, key_hash TEXT NOT NULL UNIQUE, name TEXT NOT NULL, scope TEXT NOT NULL,
  agents TEXT, created_at INTEGER NOT NULL, last_used_at INTEGER);
`),
  },
  {
    version: 6,
    what: "the invocation log: run summaries' agent and who started them as indexed columns, filled in from the summaries",
    up: (sql) => {
      // Each step runs once (migrations.ts), so the columns are new here.
      sql.exec("ALTER TABLE run_summaries ADD COLUMN agent_id TEXT");
      sql.exec("ALTER TABLE run_summaries ADD COLUMN via TEXT NOT NULL DEFAULT 'rpc'");
      // Older summaries name the agent in `source` and leave `via` out for RPC runs.
      sql.exec(
        "UPDATE run_summaries SET agent_id = json_extract(summary, '$.source.agentId'), via = COALESCE(json_extract(summary, '$.via'), 'rpc')",
      );
      sql.exec(`
CREATE INDEX IF NOT EXISTS run_summaries_by_agent ON run_summaries (agent_id, started_at);
CREATE INDEX IF NOT EXISTS run_summaries_by_via ON run_summaries (via, started_at);
`);
    },
  },
  {
    version: 7,
    what: "workspace secrets: each one's name, its value sealed with AES-GCM under the Worker's SECRETS_KEY (never in clear), its size and when it was set",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS secrets (
  name TEXT PRIMARY KEY, iv TEXT NOT NULL, data TEXT NOT NULL, bytes INTEGER NOT NULL, updated_at INTEGER NOT NULL);
`),
  },
  {
    version: 8,
    what: "HTTP endpoints: each agent's unguessable id and the names it published with, the active one per agent",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS endpoints (
  endpoint TEXT PRIMARY KEY, agent_id TEXT NOT NULL, named INTEGER NOT NULL, active INTEGER NOT NULL,
  response TEXT NOT NULL, created_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS endpoints_by_agent ON endpoints (agent_id);
`),
  },
  {
    version: 9,
    what: "schedules: each schedule of an agent's latest version, when it is next due, paused, its last firing and outcome, firings skipped",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS schedules (
  agent_id TEXT NOT NULL, schedule TEXT NOT NULL, position INTEGER NOT NULL, version INTEGER NOT NULL,
  next_at INTEGER, paused INTEGER NOT NULL, last_at INTEGER, last_outcome TEXT, skipped INTEGER NOT NULL,
  PRIMARY KEY (agent_id, schedule));
CREATE INDEX IF NOT EXISTS schedules_by_due ON schedules (paused, next_at);
`),
  },
  {
    version: 10,
    what: "quota for npm packages of the workspace's own registry: each one charged once, by integrity, and their usage row",
    up: (sql) =>
      sql.exec(`
CREATE TABLE IF NOT EXISTS package_charges (
  integrity TEXT PRIMARY KEY, name TEXT NOT NULL, version TEXT NOT NULL, bytes INTEGER NOT NULL, charged_at INTEGER NOT NULL);
INSERT OR IGNORE INTO usage (category, bytes) VALUES ('packages', 0);
`),
  },
];
