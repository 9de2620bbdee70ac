/**
 * One Durable Object per workspace, with SQLite storage. Every method works inside this one workspace,
 * so no id from another workspace can ever resolve here. Methods throw `Error`s whose messages are
 * meant for the user; the RPC layer passes them on.
 *
 * A shell: each concern is a table module over the same `SqlStorage` (drafts, agents, runs, kv,
 * settings, error reports, test results, quota accounting, API keys); this class runs the migrations and
 * delegates, and keeps here only what crosses concerns.
 */

import { DurableObject } from "cloudflare:workers";
import type { ErrorReport } from "@gadgets/backend-utils/error-reporting";
import { grantedSecretNames } from "@gadgets/workshop-shared/schemas";
import { checkManifest } from "@gadgets/workshop-shared/validate";
import type { SealedSecret } from "../secret-crypto.ts";
import type {
  AgentSummary,
  AgentVersion,
  ApiKeyInfo,
  Draft,
  DraftSummary,
  ErrorGroup,
  GadgetFile,
  RunRecord,
  RunSummary,
  RunVia,
  SaveOutcome,
  ScheduleInfo,
  TestStatus,
  WorkspaceSettings,
  WorkspaceUsage,
} from "@gadgets/workshop-shared/api";
import { type AgentRef, AgentTable, type ResolvedAgent } from "./agent-table.ts";
import { DraftTable } from "./draft-table.ts";
import { type ActiveEndpoint, EndpointTable, type NameRefusal } from "./endpoint-table.ts";
import { ErrorReportTable } from "./error-report-table.ts";
import { type KeyCreation, KeyTable, type NewKey } from "./key-table.ts";
import { KvTable } from "./kv-table.ts";
import { migrate } from "./migrations.ts";
import { RunTable } from "./run-table.ts";
import { manifestSchedules, ScheduleTable } from "./schedule-table.ts";
import { type SecretRow, SecretTable, type SecretWrite } from "./secret-table.ts";
import { DEFAULT_SETTINGS, SettingsTable, type StoredRegistry } from "./settings-table.ts";
import { TestStatusTable } from "./test-status-table.ts";
import { UsageTable } from "./usage-table.ts";
import { WORKSPACE_MIGRATIONS } from "./workspace-schema.ts";
import type { Env } from "../env.ts";
import { ScheduleDispatcher } from "../schedules/schedule-dispatcher.ts";
import { applyScheduleMinimum } from "../schedules/schedule-env.ts";
import { codedStub } from "./coded-errors.ts";

export type { AgentRef, ResolvedAgent } from "./agent-table.ts";

/** The sentence refusing an endpoint name, naming the field. */
function endpointNameRefusal(name: string, refused: NameRefusal): string {
  const field = `"triggers.http.name" ${JSON.stringify(name)}`;
  switch (refused.reason) {
    case "agent":
      return `${field} is already the endpoint of agent "${refused.agentName}" in this workspace. Pick another name, or publish "${refused.agentName}" without it first.`;
    case "id":
      return `${field} is taken. Pick another name (or leave "name" out for an unguessable endpoint).`;
    case "too-many":
      return `${field} would be a new endpoint name, and this workspace already holds ${refused.held}, the limit. Reuse a name one of its agents published with before, or leave "name" out.`;
  }
}

/** What `listRuns` answers: the runs, or that the filter's agent is none of this workspace's. */
export type ListedRuns = { found: true; runs: RunSummary[] } | { found: false; unknownAgent: string };

export class WorkspaceStore extends DurableObject<unknown> {
  readonly #sql: SqlStorage;
  #schemaReady = false;
  #exists = false;

  readonly #usage: UsageTable;
  readonly #settings: SettingsTable;
  readonly #drafts: DraftTable;
  readonly #tests: TestStatusTable;
  readonly #agents: AgentTable;
  readonly #runs: RunTable;
  readonly #kv: KvTable;
  readonly #errors: ErrorReportTable;
  readonly #keys: KeyTable;
  readonly #endpoints: EndpointTable;
  readonly #secrets: SecretTable;
  readonly #schedules: ScheduleTable;
  /** Fires the schedules (made on first use): the one part of a store that reads the Worker's bindings. */
  #dispatcher: ScheduleDispatcher | undefined;
  readonly #env: unknown;

  // Stores read no bindings, the Worker hands them what they need — except the schedules' alarm, which
  // runs agents and so holds `env` (used only by schedule-dispatcher.ts).
  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env);
    const sql = ctx.storage.sql;
    this.#sql = sql;
    this.#usage = new UsageTable(sql);
    this.#settings = new SettingsTable(sql);
    this.#drafts = new DraftTable(sql, this.#usage);
    this.#tests = new TestStatusTable(sql);
    this.#agents = new AgentTable(sql, this.#usage, this.#tests);
    this.#runs = new RunTable(sql, this.#usage, (work) => ctx.storage.transactionSync(work));
    this.#kv = new KvTable(sql, this.#usage);
    this.#errors = new ErrorReportTable(sql);
    this.#keys = new KeyTable(sql);
    this.#endpoints = new EndpointTable(sql);
    this.#secrets = new SecretTable(sql);
    this.#schedules = new ScheduleTable(sql);
    this.#env = env;
    // Publishing checks schedules against the minimum interval a test server may have lowered.
    applyScheduleMinimum(env as Env);
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

  // ----- the workspace and its settings

  /** Marks the workspace as created. */
  initialize(workspaceId: string): void {
    this.#migrate();
    this.#settings.markCreated(workspaceId);
  }

  exists(): boolean {
    return this.#hasSchema() && this.#settings.isCreated();
  }

  /** What a new session needs: whether the workspace exists, and its settings. */
  openSession(): { exists: boolean; settings: WorkspaceSettings } {
    const exists = this.exists();
    return { exists, settings: exists ? this.getSettings() : { ...DEFAULT_SETTINGS } };
  }

  getSettings(): WorkspaceSettings {
    return this.#settings.get();
  }

  /** `changes` were validated by the caller. */
  updateSettings(changes: Partial<WorkspaceSettings>): WorkspaceSettings {
    return this.#settings.update(changes);
  }

  /** The workspace's own npm registry (token sealed), or undefined for the Workshop's default. */
  registry(): StoredRegistry | undefined {
    return this.#settings.registry();
  }

  /** Checked and sealed by the caller (packages/registry-setting.ts); undefined: back to the default. */
  setRegistry(registry: StoredRegistry | undefined): void {
    this.#settings.setRegistry(registry);
  }

  // ----- quota

  usage(): WorkspaceUsage {
    return this.#usage.usage();
  }

  /** Charges a share or record made from this workspace (stored elsewhere) to its quota. */
  chargeShare(kind: "snapshot" | "record", id: string, bytes: number): void {
    this.#usage.chargeShare(kind, id, bytes);
  }

  /** Charges a package of the workspace's own registry before it is stored (kept elsewhere); the quota's refusal, else undefined. */
  chargePackage(integrity: string, name: string, version: string, bytes: number): string | undefined {
    return this.#usage.chargePackage(integrity, name, version, bytes);
  }

  refundPackage(integrity: string): void {
    this.#usage.refundPackage(integrity);
  }

  // ----- drafts

  listDrafts(): DraftSummary[] {
    return this.#drafts.list();
  }

  createDraft(files: GadgetFile[]): Draft {
    return this.#drafts.create(files);
  }

  getDraft(draftId: string): Draft {
    return this.#drafts.get(draftId);
  }

  saveDraft(draftId: string, baseVersion: number, files: GadgetFile[]): SaveOutcome {
    return this.#drafts.save(draftId, baseVersion, files);
  }

  /** Here rather than in the draft table: a draft's test results and kv go with it (kv only if unpublished). */
  deleteDraft(draftId: string): void {
    this.#drafts.delete(draftId);
    this.#tests.deleteForDraft(draftId);
    // A published agent of the draft still uses its kv.
    if (!this.#agents.publishedFrom(draftId)) this.#kv.deleteScope(draftId);
  }

  // ----- test results (of drafts that exist)

  recordTestStatus(draftId: string, status: TestStatus): void {
    this.#drafts.mustExist(draftId);
    this.#tests.saveForDraft(draftId, status);
  }

  testStatus(draftId: string): TestStatus | null {
    this.#drafts.mustExist(draftId);
    return this.#tests.forDraft(draftId);
  }

  // ----- agents

  /**
   * Publishes the draft's saved version. With `tested`, only that version (the one whose tests ran),
   * and the new agent version records the results.
   */
  publishDraft(draftId: string, tested?: { version: number; tests: TestStatus }): AgentVersion & { endpoint?: string } {
    const draft = this.#drafts.get(draftId);
    // The endpoint is checked before anything is written, and set in the same turn as the version.
    const manifest = checkManifest(draft.files);
    const http = manifest.ok ? manifest.value.triggers?.http : undefined;
    if (http?.name !== undefined) {
      const refused = this.#endpoints.nameRefusal(http.name, this.#agents.agentIdOf(draftId));
      // The session asked `endpointNameProblem` first (with its code); this is the same check, atomic with the write.
      if (refused) throw new Error(endpointNameRefusal(http.name, refused));
    }
    const version = this.#agents.publish(draft, tested);
    const endpoint = this.#endpoints.activate(version.agentId, http, version.publishedAt);
    // The agent's schedules move to this version (none: they stop); the alarm follows.
    this.#schedules.replaceForAgent(
      version.agentId,
      version.version,
      manifestSchedules(manifest.ok ? manifest.value : undefined),
      version.publishedAt,
    );
    this.#armSchedules();
    return endpoint === undefined ? version : { ...version, endpoint };
  }

  /** Why the draft's agent may not take endpoint `name` in this workspace, or undefined when it may. */
  endpointNameProblem(draftId: string, name: string): string | undefined {
    const refused = this.#endpoints.nameRefusal(name, this.#agents.agentIdOf(draftId));
    return refused && endpointNameRefusal(name, refused);
  }

  /** The agent answering on `endpoint` (its latest version), or undefined when none does. */
  resolveEndpoint(endpoint: string): (ActiveEndpoint & { version: number }) | undefined {
    if (!this.#hasSchema()) return undefined;
    const active = this.#endpoints.resolve(endpoint);
    const agent = active && this.#agents.resolve(active.agentId, undefined);
    return active && agent ? { ...active, version: agent.version } : undefined;
  }

  /** The active endpoints with their agents' names. */
  listEndpoints(): (ActiveEndpoint & { agentName: string })[] {
    return this.#endpoints.list().flatMap((active) => {
      const agent = this.#agents.resolve(active.agentId, undefined);
      return agent ? [{ ...active, agentName: agent.name }] : [];
    });
  }

  listAgents(): AgentSummary[] {
    return this.#agents.list();
  }

  /** By name (a published agent's manifest name), latest or a fixed version. */
  resolveAgentByName(name: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    return this.#agents.resolveByName(name, version);
  }

  resolveAgent(agentId: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    return this.#agents.resolve(agentId, version);
  }

  latestAgentRef(agentId: string): AgentRef | undefined {
    return this.#agents.latestRef(agentId);
  }

  latestAgentRefByName(name: string): AgentRef | undefined {
    return this.#agents.latestRefByName(name);
  }

  // ----- runs

  /** Stores each record on its own (see run-table.ts): one that cannot be stored does not take the others. */
  recordRuns(records: RunRecord[]): void {
    this.#runs.record(records);
  }

  /**
   * The latest runs, of the agent `filter.agent` names (its id, or every agent of that name) and started
   * `filter.via`, of the draft `filter.draftId`; `{ unknownAgent }` when no published agent has that id or
   * name. One call, so a log that polls asks the object once a turn. `filter` was validated by the caller.
   */
  listRuns(limit: number, filter: { agent?: string; draftId?: string; via?: RunVia } = {}): ListedRuns {
    const agentIds = filter.agent === undefined ? undefined : this.#agents.idsFor(filter.agent);
    if (agentIds?.length === 0) return { found: false, unknownAgent: filter.agent ?? "" };
    return {
      found: true,
      runs: this.#runs.list(limit, {
        ...(agentIds ? { agentIds } : {}),
        ...(filter.draftId ? { draftId: filter.draftId } : {}),
        ...(filter.via ? { via: filter.via } : {}),
      }),
    };
  }

  getRun(runId: string): RunRecord {
    return this.#runs.get(runId);
  }

  // ----- kv (scoped to one gadget: the draft it was written from; limits checked by the caller too)

  kv(scope: string, op: "get" | "put" | "delete" | "list", key: string, value: string | undefined): unknown {
    switch (op) {
      case "get":
        return this.#kv.get(scope, key);
      case "put":
        this.#kv.put(scope, key, value ?? "");
        return true;
      case "delete":
        return this.#kv.delete(scope, key);
      case "list":
        return this.#kv.list(scope, key);
    }
  }

  // ----- errors

  recordError(report: ErrorReport): void {
    this.#errors.record(report);
  }

  listErrors(): ErrorGroup[] {
    return this.#errors.list();
  }

  // ----- API keys (only a key's hash ever reaches the store)

  /**
   * Makes a key. Each of its agents (an id or a name) must be published, and is kept by its id: a name
   * another draft publishes later gains nothing.
   */
  createKey(keyHash: string, key: NewKey): KeyCreation {
    let agents: string[] | null = null;
    if (key.agents) {
      const ids = new Set<string>();
      for (const ref of key.agents) {
        const found = this.#agents.resolve(ref, undefined) ?? this.#agents.resolveByName(ref, undefined);
        if (!found)
          return {
            status: "refused",
            code: "AGENT_NOT_FOUND",
            message: `No published agent "${ref}" in this workspace: a key can be limited only to agents already published (listAgents, or gadgets agents, lists them).`,
          };
        ids.add(found.agentId);
      }
      agents = [...ids];
    }
    return this.#keys.create(keyHash, { ...key, agents }, Date.now());
  }

  listKeys(): ApiKeyInfo[] {
    return this.#keys.list();
  }

  /** Revokes at once: the key's next call, of a live session too, finds nothing. */
  revokeKey(keyId: string): boolean {
    return this.#keys.revoke(keyId);
  }

  /** What a session opened with an API key needs: the key (marked used; undefined when there is none) and the settings. */
  openKeySession(keyHash: string): { key: ApiKeyInfo | undefined; settings: WorkspaceSettings } {
    if (!this.exists()) return { key: undefined, settings: { ...DEFAULT_SETTINGS } };
    return { key: this.#keys.use(keyHash, Date.now()), settings: this.getSettings() };
  }

  /** The key, marked used; undefined once it is revoked. Each call of a key's session asks this first. */
  useKey(keyId: string): ApiKeyInfo | undefined {
    if (!this.exists()) return undefined;
    return this.#keys.useById(keyId, Date.now());
  }

  // ----- secrets (sealed by the Worker: this object never holds the key or a value in clear)

  /** Sets or replaces a secret (its value sealed, `bytes` its size in clear). */
  setSecret(name: string, sealed: SealedSecret, bytes: number): SecretWrite {
    return this.#secrets.set(name, sealed, bytes, Date.now());
  }

  /** Each secret with the names of the published agents whose latest version grants it. */
  listSecrets(): (SecretRow & { usedBy: string[] })[] {
    const rows = this.#secrets.list();
    if (rows.length === 0) return [];
    const users = this.#agents.list().map((agent) => {
      const { inEnv, inHeaders } = grantedSecretNames(agent.grants);
      return { name: agent.name, uses: new Set([...inEnv, ...inHeaders]) };
    });
    return rows.map((row) => ({
      ...row,
      usedBy: users
        .filter((user) => user.uses.has(row.name))
        .map((user) => user.name)
        .sort(),
    }));
  }

  /** The sealed values of those of `names` that are set, for a run that was granted them. */
  readSecrets(names: string[]): { name: string; sealed: SealedSecret }[] {
    if (!this.exists()) return [];
    return this.#secrets.read(names);
  }

  deleteSecret(name: string): boolean {
    return this.#secrets.delete(name);
  }

  // ----- schedules (schedules/: the alarm fires them)

  /** The schedules of the workspace's published agents, with when each fires next. */
  listSchedules(): ScheduleInfo[] {
    if (!this.exists()) return [];
    return this.#schedules.list();
  }

  /** Pauses or resumes all schedules of an agent (its id or name); undefined when there is no such agent. */
  pauseSchedules(agentRef: string, paused: boolean): ScheduleInfo[] | undefined {
    const agent = this.#agents.resolve(agentRef, undefined) ?? this.#agents.resolveByName(agentRef, undefined);
    if (!agent) return undefined;
    this.#schedules.setPaused(agent.agentId, paused, Date.now());
    this.#armSchedules();
    return this.#schedules.list(agent.agentId);
  }

  /** The one alarm of the workspace: fires what is due (schedule-dispatcher.ts). */
  override async alarm(): Promise<void> {
    if (!this.exists()) return;
    await this.#scheduler().dispatchDue();
  }

  #armSchedules(): void {
    // Not awaited: the output gate holds this call's answer until the alarm is stored.
    void this.#scheduler().arm();
  }

  #scheduler(): ScheduleDispatcher {
    this.#dispatcher ??= new ScheduleDispatcher({
      env: this.#env as Env,
      table: this.#schedules,
      self: () => codedStub((this.#env as Env).WORKSPACES.get(this.ctx.id)),
      workspaceId: () => this.#settings.workspaceId(),
      latestVersion: (agentId) => this.#agents.resolve(agentId, undefined),
      recordError: (report) => this.recordError(report),
      setAlarm: async (at) => {
        if (at === null) await this.ctx.storage.deleteAlarm();
        else if ((await this.ctx.storage.getAlarm()) !== at) await this.ctx.storage.setAlarm(at);
      },
      waitUntil: (work) => this.ctx.waitUntil(work),
      now: () => Date.now(),
    });
    return this.#dispatcher;
  }
}
