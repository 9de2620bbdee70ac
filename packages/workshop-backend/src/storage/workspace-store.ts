/**
 * One Durable Object per workspace, with SQLite storage: drafts with versions, published agent
 * versions, run records and aggregated errors. Every method works inside this one workspace, so no id
 * from another workspace can ever resolve here. Methods throw `Error`s whose messages are meant for
 * the user; the RPC layer passes them on.
 */

import { DurableObject } from "cloudflare:workers";
import type { ErrorReport } from "@gadgets/backend-utils/error-reporting";
import {
  type AgentSummary,
  type AgentVersion,
  type Draft,
  type DraftSummary,
  type ErrorGroup,
  type GadgetFile,
  type GadgetGrants,
  MANIFEST_PATH,
  type RunRecord,
  type RunSummary,
  type SaveOutcome,
  type TestStatus,
  type WorkspaceSettings,
  type WorkspaceUsage,
} from "@gadgets/workshop-shared/api";
import {
  DEFAULT_RUN_TIMEOUT_MS,
  KV_ENTRY_OVERHEAD_BYTES,
  KV_MAX_LIST,
  KV_MAX_TOTAL_BYTES,
  MAX_DRAFTS_PER_WORKSPACE,
  MAX_ERROR_GROUPS_PER_WORKSPACE,
  MAX_LIST_LIMIT,
  MAX_RUN_RECORD_BYTES_PER_WORKSPACE,
  MAX_RUN_RECORDS_PER_WORKSPACE,
  WORKSPACE_QUOTA_BYTES,
} from "@gadgets/workshop-shared/limits";
import { byteLength, checkManifest } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import { randomId } from "./ids.ts";
import { quotaRefusal, USAGE_CATEGORIES, type UsageCategory } from "./quota.ts";
import { migrate } from "./migrations.ts";
import { insertRunRows, runRows } from "./run-rows.ts";
import { TestStatusTable } from "./test-status-table.ts";
import { WORKSPACE_MIGRATIONS } from "./workspace-schema.ts";

/** An agent's docs as listed in the catalog. */
const MAX_AGENT_DOCS_CHARS = 64 * 1024;

/** Records beyond the cap are deleted once this many have piled up. */
const RUN_PRUNE_STEP = 50;
/** Oldest records deleted at a time when a new one needs bytes. */
const RECORD_ROOM_STEP = 10;

/** What the runner needs to execute a published agent version. */
export interface ResolvedAgent {
  agentId: string;
  /** The draft it was published from: the scope of its kv, the same for every version. */
  draftId: string;
  version: number;
  name: string;
  files: GadgetFile[];
}

type DraftRow = { id: string; name: string; version: number; files: string; created_at: number; updated_at: number };

function summary(row: DraftRow): DraftSummary {
  return { id: row.id, name: row.name, version: row.version, createdAt: row.created_at, updatedAt: row.updated_at };
}

function draftName(files: readonly GadgetFile[]): string {
  const manifest = checkManifest(files);
  if (manifest.ok) return manifest.value.name;
  // A draft may be saved mid-edit with a broken manifest; keep a readable name anyway.
  const raw = files.find((file) => file.path === MANIFEST_PATH)?.content ?? "";
  const match = /"name"\s*:\s*"([^"]{1,64})"/.exec(raw);
  return match?.[1] ?? "untitled";
}

export class WorkspaceStore extends DurableObject<Env> {
  readonly #sql: SqlStorage;
  /** Rows in `runs`, counted once and then tracked. */
  #runRows: number | undefined;

  #schemaReady = false;
  #exists = false;
  readonly #tests: TestStatusTable;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#tests = new TestStatusTable(this.#sql);
    // An existing workspace comes up to date before it serves anything. A database without tables is
    // left alone: looking up an unknown workspace must write nothing (`initialize` creates it).
    void ctx.blockConcurrencyWhile(async () => {
      if (this.#hasSchema()) this.#migrate();
    });
  }

  /**
   * Looking up a token that belongs to no workspace must not write anything: the schema is created
   * only when a workspace is, and reads check for it first.
   */
  #hasSchema(): boolean {
    this.#exists ||=
      this.#schemaReady ||
      this.#sql.exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").toArray().length > 0;
    return this.#exists;
  }

  /** Runs the schema's migrations this database has not had yet (see workspace-schema.ts). */
  #migrate(): void {
    if (this.#schemaReady) return;
    migrate(this.#sql, (work) => this.ctx.storage.transactionSync(work), WORKSPACE_MIGRATIONS);
    this.#schemaReady = true;
  }

  // ----- quota: bytes stored per category, kept up to date by every write

  #usageBytes(): Record<UsageCategory, number> {
    const bytes: Record<UsageCategory, number> = { drafts: 0, versions: 0, records: 0, kv: 0, shares: 0 };
    for (const row of this.#sql.exec<{ category: UsageCategory; bytes: number }>("SELECT * FROM usage").toArray())
      bytes[row.category] = row.bytes;
    return bytes;
  }

  #usedBytes(): number {
    return this.#sql.exec<{ n: number }>("SELECT COALESCE(SUM(bytes), 0) AS n FROM usage").one().n;
  }

  #grow(category: UsageCategory, delta: number): void {
    if (delta !== 0) this.#sql.exec("UPDATE usage SET bytes = MAX(0, bytes + ?) WHERE category = ?", delta, category);
  }

  /** Throws the quota's message when growing by `growth` bytes would pass it. */
  #ensureRoom(growth: number): void {
    const refusal = quotaRefusal(this.#usedBytes(), growth);
    if (refusal) throw new Error(refusal);
  }

  usage(): WorkspaceUsage {
    const bytes = this.#usageBytes();
    return {
      quotaBytes: WORKSPACE_QUOTA_BYTES,
      usedBytes: USAGE_CATEGORIES.reduce((total, category) => total + bytes[category], 0),
      bytes,
    };
  }

  /** Charges a share or record made from this workspace (stored elsewhere) to its quota. */
  chargeShare(kind: "snapshot" | "record", id: string, bytes: number): void {
    this.#ensureRoom(bytes);
    this.#sql.exec(
      "INSERT INTO shares (id, kind, bytes, created_at) VALUES (?, ?, ?, ?)",
      id,
      kind,
      bytes,
      this.#now(),
    );
    this.#grow("shares", bytes);
  }

  #now(): number {
    return Date.now();
  }

  /** Marks the workspace as created. */
  initialize(workspaceId: string): void {
    this.#migrate();
    this.#sql.exec(
      "INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?), ('created_at', ?)",
      workspaceId,
      String(this.#now()),
    );
  }

  exists(): boolean {
    return this.#hasSchema() && this.#sql.exec("SELECT 1 FROM meta WHERE key = 'workspace_id'").toArray().length > 0;
  }

  /** What a new session needs: whether the workspace exists, and its settings. */
  openSession(): { exists: boolean; settings: WorkspaceSettings } {
    const exists = this.exists();
    return {
      exists,
      settings: exists ? this.getSettings() : { runTimeoutMs: DEFAULT_RUN_TIMEOUT_MS, fetchHosts: null },
    };
  }

  getSettings(): WorkspaceSettings {
    const setting = (key: string) =>
      this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
    const timeout = setting("run_timeout_ms");
    const hosts = setting("fetch_hosts");
    return {
      runTimeoutMs: timeout ? Number(timeout) : DEFAULT_RUN_TIMEOUT_MS,
      fetchHosts: hosts ? (JSON.parse(hosts) as string[] | null) : null,
    };
  }

  /** `changes` were validated by the caller. */
  updateSettings(changes: Partial<WorkspaceSettings>): WorkspaceSettings {
    if (changes.runTimeoutMs !== undefined) {
      this.#sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('run_timeout_ms', ?)",
        String(changes.runTimeoutMs),
      );
    }
    if (changes.fetchHosts !== undefined) {
      this.#sql.exec(
        "INSERT OR REPLACE INTO meta (key, value) VALUES ('fetch_hosts', ?)",
        JSON.stringify(changes.fetchHosts),
      );
    }
    return this.getSettings();
  }

  // ----- drafts

  listDrafts(): DraftSummary[] {
    return this.#sql.exec<DraftRow>("SELECT * FROM drafts ORDER BY updated_at DESC").toArray().map(summary);
  }

  createDraft(files: GadgetFile[]): Draft {
    const count = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM drafts").one().n;
    if (count >= MAX_DRAFTS_PER_WORKSPACE)
      throw new Error(`This workspace already has ${MAX_DRAFTS_PER_WORKSPACE} drafts, the limit. Delete some first.`);
    const now = this.#now();
    const row: DraftRow = {
      id: randomId(),
      name: draftName(files),
      version: 1,
      files: JSON.stringify(files),
      created_at: now,
      updated_at: now,
    };
    const bytes = byteLength(row.files);
    this.#ensureRoom(bytes);
    this.#sql.exec(
      "INSERT INTO drafts (id, name, version, files, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)",
      row.id,
      row.name,
      row.version,
      row.files,
      row.created_at,
      row.updated_at,
    );
    this.#grow("drafts", bytes);
    return { ...summary(row), files };
  }

  #draftRow(draftId: string): DraftRow {
    const row = this.#sql.exec<DraftRow>("SELECT * FROM drafts WHERE id = ?", draftId).toArray()[0];
    if (!row)
      throw new Error(
        `Draft ${draftId} was not found in this workspace. It may have been deleted; list drafts to see what exists.`,
      );
    return row;
  }

  getDraft(draftId: string): Draft {
    const row = this.#draftRow(draftId);
    return { ...summary(row), files: JSON.parse(row.files) as GadgetFile[] };
  }

  saveDraft(draftId: string, baseVersion: number, files: GadgetFile[]): SaveOutcome {
    const row = this.#draftRow(draftId);
    if (row.version !== baseVersion) {
      return {
        status: "conflict",
        current: { ...summary(row), files: JSON.parse(row.files) as GadgetFile[] },
        message: `Draft "${row.name}" was changed elsewhere: your edit is based on version ${baseVersion}, the saved one is version ${row.version}. Nothing was overwritten; merge your changes into version ${row.version} and save again.`,
      };
    }
    const next: DraftRow = {
      ...row,
      name: draftName(files),
      version: row.version + 1,
      files: JSON.stringify(files),
      updated_at: this.#now(),
    };
    const growth = byteLength(next.files) - byteLength(row.files);
    this.#ensureRoom(growth);
    this.#sql.exec(
      "UPDATE drafts SET name = ?, version = ?, files = ?, updated_at = ? WHERE id = ? AND version = ?",
      next.name,
      next.version,
      next.files,
      next.updated_at,
      draftId,
      baseVersion,
    );
    this.#grow("drafts", growth);
    return { status: "saved", draft: summary(next) };
  }

  deleteDraft(draftId: string): void {
    const row = this.#draftRow(draftId);
    this.#sql.exec("DELETE FROM drafts WHERE id = ?", draftId);
    this.#grow("drafts", -byteLength(row.files));
    this.#tests.deleteForDraft(draftId);
    // Its kv goes with it, unless a published agent of it still uses that data.
    if (this.#sql.exec("SELECT 1 FROM agents WHERE draft_id = ?", draftId).toArray().length === 0) {
      this.#grow("kv", -this.#kvBytes(draftId, undefined));
      this.#sql.exec("DELETE FROM kv WHERE scope = ?", draftId);
    }
  }

  /** Bytes of a gadget's kv (keys, values, per-entry overhead), leaving out `exceptKey`. */
  #kvBytes(scope: string, exceptKey: string | undefined): number {
    return this.#sql
      .exec<{ used: number }>(
        "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ?), 0) AS used FROM kv WHERE scope = ? AND key IS NOT ?",
        KV_ENTRY_OVERHEAD_BYTES,
        scope,
        exceptKey ?? null,
      )
      .one().used;
  }

  // ----- agents

  /**
   * Publishes the draft's saved version. With `tested`, only that version (the one whose tests ran),
   * and the new agent version records the results.
   */
  publishDraft(draftId: string, tested?: { version: number; tests: TestStatus }): AgentVersion {
    const draft = this.getDraft(draftId);
    if (tested && tested.version !== draft.version)
      throw new Error(
        `Draft "${draft.name}" was saved again (version ${draft.version}) while the tests of version ${tested.version} ran; nothing was published. Publish again to test and publish the new version.`,
      );
    const manifest = checkManifest(draft.files);
    if (!manifest.ok) throw new Error(`Draft "${draft.name}" cannot be published: ${manifest.error}`);
    const now = this.#now();
    const description = manifest.value.description ?? "";
    const grants: GadgetGrants = manifest.value.grants ?? {};
    const filesText = JSON.stringify(draft.files);
    const grantsText = JSON.stringify(grants);
    const bytes = byteLength(filesText) + byteLength(grantsText);
    this.#ensureRoom(bytes);
    let agent = this.#sql
      .exec<{ id: string; latest_version: number }>("SELECT id, latest_version FROM agents WHERE draft_id = ?", draftId)
      .toArray()[0];
    if (!agent) {
      agent = { id: randomId(), latest_version: 0 };
      this.#sql.exec(
        "INSERT INTO agents (id, draft_id, name, description, latest_version, updated_at) VALUES (?, ?, ?, ?, 0, ?)",
        agent.id,
        draftId,
        manifest.value.name,
        description,
        now,
      );
    }
    const version = agent.latest_version + 1;
    this.#sql.exec(
      "INSERT INTO agent_versions (agent_id, version, name, description, files, grants, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      agent.id,
      version,
      manifest.value.name,
      description,
      filesText,
      grantsText,
      now,
    );
    this.#grow("versions", bytes);
    this.#sql.exec(
      "UPDATE agents SET name = ?, description = ?, latest_version = ?, updated_at = ? WHERE id = ?",
      manifest.value.name,
      description,
      version,
      now,
      agent.id,
    );
    if (tested) this.#tests.saveForAgent(agent.id, version, tested.tests);
    return {
      agentId: agent.id,
      name: manifest.value.name,
      version,
      description,
      publishedAt: now,
      grants,
      ...(tested ? { tests: tested.tests } : {}),
    };
  }

  // ----- test results

  recordTestStatus(draftId: string, status: TestStatus): void {
    this.#draftRow(draftId);
    this.#tests.saveForDraft(draftId, status);
  }

  testStatus(draftId: string): TestStatus | null {
    this.#draftRow(draftId);
    return this.#tests.forDraft(draftId);
  }

  listAgents(): AgentSummary[] {
    return this.#sql
      .exec<{
        id: string;
        name: string;
        description: string;
        latest_version: number;
        draft_id: string;
        updated_at: number;
        files: string;
        grants: string;
      }>(
        "SELECT a.*, v.files, v.grants FROM agents a JOIN agent_versions v ON v.agent_id = a.id AND v.version = a.latest_version ORDER BY a.updated_at DESC",
      )
      .toArray()
      .map((row) => {
        const files = JSON.parse(row.files) as GadgetFile[];
        const docs = files.find((file) => /^(README|AGENTS)\.md$/i.test(file.path))?.content ?? "";
        const tests = this.#tests.forAgent(row.id, row.latest_version);
        return {
          agentId: row.id,
          name: row.name,
          description: row.description,
          latestVersion: row.latest_version,
          draftId: row.draft_id,
          updatedAt: row.updated_at,
          grants: JSON.parse(row.grants) as GadgetGrants,
          docs: docs.slice(0, MAX_AGENT_DOCS_CHARS),
          ...(tests ? { tests } : {}),
        };
      });
  }

  /** By name (a published agent's manifest name), latest or a fixed version. */
  resolveAgentByName(name: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    const row = this.#sql
      .exec<{ id: string }>("SELECT id FROM agents WHERE name = ? ORDER BY updated_at DESC LIMIT 1", name)
      .toArray()[0];
    return row ? this.resolveAgent(row.id, version) : undefined;
  }

  resolveAgent(agentId: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    const row = this.#sql
      .exec<{
        agent_id: string;
        version: number;
        name: string;
        description: string;
        files: string;
        grants: string;
        published_at: number;
      }>(
        version === undefined
          ? "SELECT v.* FROM agent_versions v JOIN agents a ON a.id = v.agent_id AND a.latest_version = v.version WHERE a.id = ?"
          : "SELECT * FROM agent_versions WHERE agent_id = ? AND version = ?",
        ...(version === undefined ? [agentId] : [agentId, version]),
      )
      .toArray()[0];
    if (!row) return undefined;
    const draftId = this.#sql
      .exec<{ draft_id: string }>("SELECT draft_id FROM agents WHERE id = ?", row.agent_id)
      .one().draft_id;
    const tests = this.#tests.forAgent(row.agent_id, row.version);
    return {
      agentId: row.agent_id,
      draftId,
      version: row.version,
      name: row.name,
      files: JSON.parse(row.files) as GadgetFile[],
      meta: {
        agentId: row.agent_id,
        name: row.name,
        version: row.version,
        description: row.description,
        publishedAt: row.published_at,
        grants: JSON.parse(row.grants) as GadgetGrants,
        ...(tests ? { tests } : {}),
      },
    };
  }

  // ----- runs

  /**
   * Stores each record in parts (files, payload, events, outcome), since a Durable Object row holds at
   * most 2 MB and a run may carry 1 MiB of files, 1 MiB of payload and 1 MiB of result. Each record
   * is stored on its own: one that cannot be stored does not take the others with it.
   */
  recordRuns(records: RunRecord[]): void {
    let stored = 0;
    for (const record of records) {
      try {
        this.ctx.storage.transactionSync(() => this.#recordRun(record));
        stored++;
      } catch (error) {
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
    this.#runRows ??= this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM run_summaries").one().n - stored;
    this.#runRows += stored;
    // Pruning in steps keeps the COUNT and DELETE off most writes.
    if (this.#runRows > MAX_RUN_RECORDS_PER_WORKSPACE + RUN_PRUNE_STEP)
      this.#deleteOldestRuns(this.#runRows - MAX_RUN_RECORDS_PER_WORKSPACE);
  }

  /** Deletes the `count` oldest run records, and their bytes from the usage. */
  #deleteOldestRuns(count: number): void {
    const oldest = "SELECT id FROM run_summaries ORDER BY started_at ASC LIMIT ?";
    const freed = this.#sql
      .exec<{ n: number }>(`SELECT COALESCE(SUM(bytes), 0) AS n FROM run_sizes WHERE run_id IN (${oldest})`, count)
      .one().n;
    this.#sql.exec(`DELETE FROM run_parts WHERE run_id IN (${oldest})`, count);
    this.#sql.exec(`DELETE FROM run_sizes WHERE run_id IN (${oldest})`, count);
    this.#sql.exec(`DELETE FROM run_summaries WHERE id IN (${oldest})`, count);
    this.#grow("records", -freed);
    this.#runRows = undefined;
  }

  /**
   * Makes room for a record of `bytes`: records stay within their own share of the quota, and the
   * workspace within its quota, by pruning the oldest records. False when even that cannot make room.
   */
  #makeRoomForRecord(bytes: number): boolean {
    for (;;) {
      const usage = this.#usageBytes();
      const total = USAGE_CATEGORIES.reduce((sum, category) => sum + usage[category], 0);
      if (usage.records + bytes <= MAX_RUN_RECORD_BYTES_PER_WORKSPACE && total + bytes <= WORKSPACE_QUOTA_BYTES)
        return true;
      if (this.#sql.exec("SELECT 1 FROM run_summaries LIMIT 1").toArray().length === 0) return false;
      this.#deleteOldestRuns(RECORD_ROOM_STEP);
    }
  }

  #recordRun(record: RunRecord): void {
    const rows = runRows(record);
    if (!this.#makeRoomForRecord(rows.bytes))
      throw new Error(`the workspace's storage quota has no room for a ${rows.bytes}-byte run record`);
    insertRunRows(this.#sql, record.runId, record.startedAt, rows);
    this.#sql.exec("INSERT OR REPLACE INTO run_sizes (run_id, bytes) VALUES (?, ?)", record.runId, rows.bytes);
    this.#grow("records", rows.bytes);
  }

  listRuns(limit: number): RunSummary[] {
    const rows = this.#sql
      .exec<{ summary: string }>(
        "SELECT summary FROM run_summaries ORDER BY started_at DESC LIMIT ?",
        Math.min(limit, MAX_LIST_LIMIT),
      )
      .toArray();
    return rows.map((row) => JSON.parse(row.summary) as RunSummary);
  }

  getRun(runId: string): RunRecord {
    const summary = this.#sql
      .exec<{ summary: string }>("SELECT summary FROM run_summaries WHERE id = ?", runId)
      .toArray()[0];
    if (!summary)
      throw new Error(
        `Run ${runId} was not found in this workspace (records are kept for the last ${MAX_RUN_RECORDS_PER_WORKSPACE} runs).`,
      );
    const parts = new Map(
      this.#sql
        .exec<{ part: string; value: string }>("SELECT part, value FROM run_parts WHERE run_id = ?", runId)
        .toArray()
        .map((row) => [row.part, JSON.parse(row.value) as unknown]),
    );
    const events = (parts.get("events") ?? { events: [], droppedEvents: 0 }) as {
      events: RunRecord["events"];
      droppedEvents: number;
    };
    return {
      ...(JSON.parse(summary.summary) as RunSummary),
      payload: (parts.get("payload") ?? null) as RunRecord["payload"],
      files: (parts.get("files") ?? []) as RunRecord["files"],
      events: events.events,
      droppedEvents: events.droppedEvents,
      outcome: parts.get("outcome") as RunRecord["outcome"],
      ...(parts.has("trace") ? { trace: parts.get("trace") as RunRecord["trace"] } : {}),
    };
  }

  // ----- kv (scoped to one gadget: the draft it was written from; limits checked by the caller too)

  kv(scope: string, op: "get" | "put" | "delete" | "list", key: string, value: string | undefined): unknown {
    switch (op) {
      case "get":
        return (
          this.#sql.exec<{ value: string }>("SELECT value FROM kv WHERE scope = ? AND key = ?", scope, key).toArray()[0]
            ?.value ?? null
        );
      case "delete": {
        const old = this.#kvEntryBytes(scope, key);
        this.#sql.exec("DELETE FROM kv WHERE scope = ? AND key = ?", scope, key);
        this.#grow("kv", -old);
        return old > 0;
      }
      case "list":
        // SQLite measures the prefix itself, so the comparison counts characters the same way on both sides.
        return this.#sql
          .exec<{ key: string }>(
            "SELECT key FROM kv WHERE scope = ? AND substr(key, 1, length(?)) = ? ORDER BY key LIMIT ?",
            scope,
            key,
            key,
            KV_MAX_LIST,
          )
          .toArray()
          .map((row) => row.key);
      case "put": {
        const text = value ?? "";
        // Every entry is charged a fixed overhead too, so many tiny keys cannot outgrow the quota.
        const used = this.#sql
          .exec<{ used: number }>(
            "SELECT COALESCE(SUM(length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ?), 0) AS used FROM kv WHERE scope = ? AND key != ?",
            KV_ENTRY_OVERHEAD_BYTES,
            scope,
            key,
          )
          .one().used;
        const adding =
          new TextEncoder().encode(key).byteLength +
          new TextEncoder().encode(text).byteLength +
          KV_ENTRY_OVERHEAD_BYTES;
        if (used + adding > KV_MAX_TOTAL_BYTES) {
          throw new Error(
            `kv is full: this gadget may keep ${KV_MAX_TOTAL_BYTES} bytes (keys, values and ${KV_ENTRY_OVERHEAD_BYTES} bytes per entry), and ${used} are used. Delete keys it no longer needs.`,
          );
        }
        const growth = adding - this.#kvEntryBytes(scope, key);
        this.#ensureRoom(growth);
        this.#sql.exec("INSERT OR REPLACE INTO kv (scope, key, value) VALUES (?, ?, ?)", scope, key, text);
        this.#grow("kv", growth);
        return true;
      }
    }
  }

  /** What one kv entry costs (0 when there is none). */
  #kvEntryBytes(scope: string, key: string): number {
    return (
      this.#sql
        .exec<{ n: number }>(
          "SELECT length(CAST(key AS BLOB)) + length(CAST(value AS BLOB)) + ? AS n FROM kv WHERE scope = ? AND key = ?",
          KV_ENTRY_OVERHEAD_BYTES,
          scope,
          key,
        )
        .toArray()[0]?.n ?? 0
    );
  }

  // ----- errors

  recordError(report: ErrorReport): void {
    this.#sql.exec(
      `INSERT INTO errors (fingerprint, name, message, count, first_seen, last_seen, context, stack) VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (fingerprint) DO UPDATE SET count = count + 1, last_seen = excluded.last_seen, message = excluded.message,
       context = excluded.context, stack = excluded.stack`,
      report.fingerprint,
      report.name,
      report.message,
      report.at,
      report.at,
      JSON.stringify(report.context),
      report.stack,
    );
    const count = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM errors").one().n;
    if (count > MAX_ERROR_GROUPS_PER_WORKSPACE) {
      this.#sql.exec(
        "DELETE FROM errors WHERE fingerprint IN (SELECT fingerprint FROM errors ORDER BY last_seen ASC LIMIT ?)",
        count - MAX_ERROR_GROUPS_PER_WORKSPACE,
      );
    }
  }

  listErrors(): ErrorGroup[] {
    return this.#sql
      .exec<{
        fingerprint: string;
        name: string;
        message: string;
        count: number;
        first_seen: number;
        last_seen: number;
        context: string;
        stack: string;
      }>("SELECT * FROM errors ORDER BY last_seen DESC LIMIT ?", MAX_LIST_LIMIT)
      .toArray()
      .map((row) => ({
        fingerprint: row.fingerprint,
        name: row.name,
        message: row.message,
        count: row.count,
        firstSeen: row.first_seen,
        lastSeen: row.last_seen,
        lastContext: JSON.parse(row.context) as Record<string, string>,
        sampleStack: row.stack,
      }));
  }
}
