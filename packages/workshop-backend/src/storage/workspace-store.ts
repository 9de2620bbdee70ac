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
  type WorkspaceSettings,
} from "@gadgets/workshop-shared/api";
import {
  DEFAULT_RUN_TIMEOUT_MS,
  MAX_DRAFTS_PER_WORKSPACE,
  MAX_ERROR_GROUPS_PER_WORKSPACE,
  MAX_LIST_LIMIT,
  MAX_RUN_RECORDS_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";
import { checkManifest } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import { randomId } from "./ids.ts";

const SCHEMA = `
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
CREATE TABLE IF NOT EXISTS runs (
  id TEXT PRIMARY KEY, summary TEXT NOT NULL, record TEXT NOT NULL, started_at INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS runs_by_start ON runs (started_at);
CREATE TABLE IF NOT EXISTS errors (
  fingerprint TEXT PRIMARY KEY, name TEXT NOT NULL, message TEXT NOT NULL, count INTEGER NOT NULL,
  first_seen INTEGER NOT NULL, last_seen INTEGER NOT NULL, context TEXT NOT NULL, stack TEXT NOT NULL);
`;

/** Records beyond the cap are deleted once this many have piled up. */
const RUN_PRUNE_STEP = 50;

/** What the runner needs to execute a published agent version. */
export interface ResolvedAgent {
  agentId: string;
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

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.#sql = ctx.storage.sql;
    this.#sql.exec(SCHEMA);
  }

  #now(): number {
    return Date.now();
  }

  /** Marks the workspace as created. */
  initialize(workspaceId: string): void {
    this.#sql.exec("INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?), ('created_at', ?)", workspaceId, String(this.#now()));
  }

  exists(): boolean {
    return this.#sql.exec("SELECT 1 FROM meta WHERE key = 'workspace_id'").toArray().length > 0;
  }

  /** What a new session needs: whether the workspace exists, and its settings. */
  openSession(): { exists: boolean; settings: WorkspaceSettings } {
    return { exists: this.exists(), settings: this.getSettings() };
  }

  getSettings(): WorkspaceSettings {
    const row = this.#sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = 'run_timeout_ms'").toArray()[0];
    return { runTimeoutMs: row ? Number(row.value) : DEFAULT_RUN_TIMEOUT_MS };
  }

  /** `changes` were validated by the caller. */
  updateSettings(changes: Partial<WorkspaceSettings>): WorkspaceSettings {
    if (changes.runTimeoutMs !== undefined) {
      this.#sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES ('run_timeout_ms', ?)", String(changes.runTimeoutMs));
    }
    return this.getSettings();
  }

  // ----- drafts

  listDrafts(): DraftSummary[] {
    return this.#sql.exec<DraftRow>("SELECT * FROM drafts ORDER BY updated_at DESC").toArray().map(summary);
  }

  createDraft(files: GadgetFile[]): Draft {
    const count = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM drafts").one().n;
    if (count >= MAX_DRAFTS_PER_WORKSPACE) throw new Error(`This workspace already has ${MAX_DRAFTS_PER_WORKSPACE} drafts, the limit. Delete some first.`);
    const now = this.#now();
    const row: DraftRow = { id: randomId(), name: draftName(files), version: 1, files: JSON.stringify(files), created_at: now, updated_at: now };
    this.#sql.exec("INSERT INTO drafts (id, name, version, files, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)", row.id, row.name, row.version, row.files, row.created_at, row.updated_at);
    return { ...summary(row), files };
  }

  #draftRow(draftId: string): DraftRow {
    const row = this.#sql.exec<DraftRow>("SELECT * FROM drafts WHERE id = ?", draftId).toArray()[0];
    if (!row) throw new Error(`Draft ${draftId} was not found in this workspace. It may have been deleted; list drafts to see what exists.`);
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
    const next: DraftRow = { ...row, name: draftName(files), version: row.version + 1, files: JSON.stringify(files), updated_at: this.#now() };
    this.#sql.exec("UPDATE drafts SET name = ?, version = ?, files = ?, updated_at = ? WHERE id = ? AND version = ?", next.name, next.version, next.files, next.updated_at, draftId, baseVersion);
    return { status: "saved", draft: summary(next) };
  }

  deleteDraft(draftId: string): void {
    this.#draftRow(draftId);
    this.#sql.exec("DELETE FROM drafts WHERE id = ?", draftId);
  }

  // ----- agents

  publishDraft(draftId: string): AgentVersion {
    const draft = this.getDraft(draftId);
    const manifest = checkManifest(draft.files);
    if (!manifest.ok) throw new Error(`Draft "${draft.name}" cannot be published: ${manifest.error}`);
    const now = this.#now();
    const description = manifest.value.description ?? "";
    const grants: GadgetGrants = manifest.value.grants ?? {};
    let agent = this.#sql.exec<{ id: string; latest_version: number }>("SELECT id, latest_version FROM agents WHERE draft_id = ?", draftId).toArray()[0];
    if (!agent) {
      agent = { id: randomId(), latest_version: 0 };
      this.#sql.exec("INSERT INTO agents (id, draft_id, name, description, latest_version, updated_at) VALUES (?, ?, ?, ?, 0, ?)", agent.id, draftId, manifest.value.name, description, now);
    }
    const version = agent.latest_version + 1;
    this.#sql.exec(
      "INSERT INTO agent_versions (agent_id, version, name, description, files, grants, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      agent.id, version, manifest.value.name, description, JSON.stringify(draft.files), JSON.stringify(grants), now,
    );
    this.#sql.exec("UPDATE agents SET name = ?, description = ?, latest_version = ?, updated_at = ? WHERE id = ?", manifest.value.name, description, version, now, agent.id);
    return { agentId: agent.id, name: manifest.value.name, version, description, publishedAt: now, grants };
  }

  listAgents(): AgentSummary[] {
    return this.#sql
      .exec<{ id: string; name: string; description: string; latest_version: number; draft_id: string; updated_at: number }>("SELECT * FROM agents ORDER BY updated_at DESC")
      .toArray()
      .map((row) => ({ agentId: row.id, name: row.name, description: row.description, latestVersion: row.latest_version, draftId: row.draft_id, updatedAt: row.updated_at }));
  }

  /** `agentId` → latest version; `agentId@N` → version N. Returns undefined when there is no such agent here. */
  resolveAgent(agentId: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    const row = this.#sql
      .exec<{ agent_id: string; version: number; name: string; description: string; files: string; grants: string; published_at: number }>(
        version === undefined
          ? "SELECT v.* FROM agent_versions v JOIN agents a ON a.id = v.agent_id AND a.latest_version = v.version WHERE a.id = ?"
          : "SELECT * FROM agent_versions WHERE agent_id = ? AND version = ?",
        ...(version === undefined ? [agentId] : [agentId, version]),
      )
      .toArray()[0];
    if (!row) return undefined;
    return {
      agentId: row.agent_id,
      version: row.version,
      name: row.name,
      files: JSON.parse(row.files) as GadgetFile[],
      meta: { agentId: row.agent_id, name: row.name, version: row.version, description: row.description, publishedAt: row.published_at, grants: JSON.parse(row.grants) as GadgetGrants },
    };
  }

  // ----- runs

  recordRuns(records: RunRecord[]): void {
    for (const record of records) {
      const { payload: _payload, files: _files, events: _events, droppedEvents: _dropped, outcome: _outcome, ...runSummary } = record;
      this.#sql.exec("INSERT OR REPLACE INTO runs (id, summary, record, started_at) VALUES (?, ?, ?, ?)", record.runId, JSON.stringify(runSummary), JSON.stringify(record), record.startedAt);
    }
    this.#runRows ??= this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM runs").one().n - records.length;
    this.#runRows += records.length;
    // Pruning in steps keeps the COUNT and DELETE off most writes.
    if (this.#runRows > MAX_RUN_RECORDS_PER_WORKSPACE + RUN_PRUNE_STEP) {
      this.#sql.exec("DELETE FROM runs WHERE id IN (SELECT id FROM runs ORDER BY started_at ASC LIMIT ?)", this.#runRows - MAX_RUN_RECORDS_PER_WORKSPACE);
      this.#runRows = MAX_RUN_RECORDS_PER_WORKSPACE;
    }
  }

  listRuns(limit: number): RunSummary[] {
    const rows = this.#sql.exec<{ summary: string }>("SELECT summary FROM runs ORDER BY started_at DESC LIMIT ?", Math.min(limit, MAX_LIST_LIMIT)).toArray();
    return rows.map((row) => JSON.parse(row.summary) as RunSummary);
  }

  getRun(runId: string): RunRecord {
    const row = this.#sql.exec<{ record: string }>("SELECT record FROM runs WHERE id = ?", runId).toArray()[0];
    if (!row) throw new Error(`Run ${runId} was not found in this workspace (records are kept for the last ${MAX_RUN_RECORDS_PER_WORKSPACE} runs).`);
    return JSON.parse(row.record) as RunRecord;
  }

  // ----- errors

  recordError(report: ErrorReport): void {
    this.#sql.exec(
      `INSERT INTO errors (fingerprint, name, message, count, first_seen, last_seen, context, stack) VALUES (?, ?, ?, 1, ?, ?, ?, ?)
       ON CONFLICT (fingerprint) DO UPDATE SET count = count + 1, last_seen = excluded.last_seen, message = excluded.message,
       context = excluded.context, stack = excluded.stack`,
      report.fingerprint, report.name, report.message, report.at, report.at, JSON.stringify(report.context), report.stack,
    );
    const count = this.#sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM errors").one().n;
    if (count > MAX_ERROR_GROUPS_PER_WORKSPACE) {
      this.#sql.exec("DELETE FROM errors WHERE fingerprint IN (SELECT fingerprint FROM errors ORDER BY last_seen ASC LIMIT ?)", count - MAX_ERROR_GROUPS_PER_WORKSPACE);
    }
  }

  listErrors(): ErrorGroup[] {
    return this.#sql
      .exec<{ fingerprint: string; name: string; message: string; count: number; first_seen: number; last_seen: number; context: string; stack: string }>("SELECT * FROM errors ORDER BY last_seen DESC LIMIT ?", MAX_LIST_LIMIT)
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
