/** The workspace session: the RPC face of the workspace's store and the overseer. */

import { RpcTarget } from "capnweb";
import type {
  AgentSummary,
  ApiKeyInfo,
  CreatedKey,
  CreateKeyInput,
  AgentVersion,
  CreateDraftInput,
  Draft,
  DraftSummary,
  ErrorGroup,
  GadgetFile,
  JsonValue,
  PublishOptions,
  RunEventListener,
  RunOptions,
  RunOutcome,
  RunListFilter,
  RunRecord,
  RunSummary,
  SaveDraftInput,
  SaveOutcome,
  Session,
  ShareSnapshot,
  TestResultListener,
  TestRunSummary,
  TestStatus,
  WorkspaceSettings,
  WorkspaceSettingsChanges,
  WorkspaceUsage,
  RunVia,
  ScheduleInfo,
  SecretInfo,
  EndpointInfo,
  PackageFileText,
  PackageLookup,
  PackageTypeFiles,
  RegistryInfo,
  RegistryInput,
  ResolveDependenciesInput,
  ResolveOutcome,
} from "@gadgets/workshop-shared/api";
import { codedError, errorCode } from "@gadgets/workshop-shared/errors";
import { MAX_TEST_RUNS_PER_SESSION } from "@gadgets/workshop-shared/limits";
import {
  CodeModeCodeSchema,
  CreateDraftInputSchema,
  DraftIdSchema,
  ListLimitSchema,
  PayloadSchema,
  PublishOptionsSchema,
  parseArgument,
  RunEventListenerSchema,
  RunIdSchema,
  RunListFilterSchema,
  SaveDraftInputSchema,
  SettingsChangesSchema,
  TestResultListenerSchema,
} from "@gadgets/workshop-shared/schemas";
import { byteLength, checkManifest } from "@gadgets/workshop-shared/validate";
import { randomId } from "../storage/ids.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { AgentTarget } from "./agent-target.ts";
import * as apiKeys from "./api-keys.ts";
import * as endpoints from "./endpoints.ts";
import * as packages from "./packages.ts";
import * as secrets from "./secrets.ts";
import * as schedules from "./schedules.ts";
import { type Access, allowsAgent, confirmAccess, REVOKED_KEY } from "./credentials.ts";
import { revokeKeySessions, trackKeySession } from "./key-sessions.ts";
import { detached } from "@gadgets/workshop-pool/detached";
import { type SessionMethod, scopeRefusal } from "./session-scope.ts";
import type { Connection } from "./connection.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import { launchRun, type RunContext } from "./run-launcher.ts";
import { RunRecordWriter } from "./run-record-writer.ts";
import { loadShare, storeShare } from "./share-links.ts";
import { runTestSuite, testStatusOf } from "./test-runner.ts";
import { shapeRecordedFetches } from "../url-shape.ts";
import { runCodeMode } from "../code-mode/code-mode-run.ts";
import { codeModeTypesText } from "../code-mode/code-mode-types.ts";

/** A manifest's description, or "" when it has none (or the manifest does not parse). */
function descriptionOf(files: readonly GadgetFile[]): string {
  const manifest = checkManifest(files);
  return manifest.ok ? (manifest.value.description ?? "") : "";
}

/** How often a key session's getAgent (which cannot wait) asks, in the background, whether the key was revoked. */
const REVOCATION_CHECK_MS = 1000;

export class SessionTarget extends RpcTarget implements Session {
  #disposed = false;
  readonly #records: RunRecordWriter;
  #testRuns = 0;
  /** This session's key was found revoked: it holds nothing and refuses everything. */
  #revoked = false;
  /** Agent stubs handed out and not yet disposed: let go of together if the key is revoked. */
  readonly #agents = new Set<AgentTarget>();
  #checkedAt = 0;
  readonly #untrack: (() => void) | undefined;

  constructor(
    private readonly connection: Connection,
    private readonly workspaceId: string,
    private readonly store: DurableObjectStub<WorkspaceStore>,
    private settings: WorkspaceSettings,
    /** The workspace token, or the API key this session was opened with (credentials.ts). */
    private readonly access: Access,
    /** Who starts this session's runs, as their records say (an MCP request); left out: RPC. */
    private readonly via?: RunVia,
  ) {
    super();
    this.#records = new RunRecordWriter(store, () => checkDiskForWrite(connection.env));
    this.#untrack = access.kind === "key" ? trackKeySession(access.keyId, { revoke: () => this.#revoke() }) : undefined;
  }

  /** Refuses once this session's API key is revoked; the workspace token is never asked about. */
  readonly #authorize = async (): Promise<void> => {
    if (this.#revoked) throw codedError("FORBIDDEN", REVOKED_KEY);
    try {
      await confirmAccess(this.store, this.access);
    } catch (error) {
      if (errorCode(error) === "FORBIDDEN") this.#revoke();
      throw error;
    }
  };

  /** The key is revoked: its stubs and this session give their live-object slots back now. */
  #revoke(): void {
    if (this.#revoked) return;
    this.#revoked = true;
    for (const agent of [...this.#agents]) agent[Symbol.dispose]();
    this[Symbol.dispose]();
  }

  /**
   * The guard at the top of every method: what the key's scope does not allow (session-scope.ts), and
   * any call at all once the key is revoked.
   */
  async #allow(method: SessionMethod): Promise<void> {
    const refused = scopeRefusal(this.access, method);
    if (refused) throw refused;
    await this.#authorize();
  }

  async workspace(): Promise<{ workspaceId: string }> {
    await this.#allow("workspace");
    return { workspaceId: this.workspaceId };
  }

  #context(): RunContext {
    return {
      connection: this.connection,
      workspaceId: this.workspaceId,
      store: this.store,
      records: this.#records,
      timeoutMs: this.settings.runTimeoutMs,
      fetchHosts: this.settings.fetchHosts,
      access: this.access,
      authorize: this.#authorize,
      ...(this.via ? { via: this.via } : {}),
    };
  }

  async getSettings(): Promise<WorkspaceSettings> {
    await this.#allow("getSettings");
    return { ...this.settings };
  }

  async updateSettings(changes: WorkspaceSettingsChanges): Promise<WorkspaceSettings> {
    await this.#allow("updateSettings");
    const { runTimeoutMs, fetchHosts } = parseArgument(SettingsChangesSchema, changes);
    await checkDiskForWrite(this.connection.env);
    this.settings = await this.store.updateSettings({
      ...(runTimeoutMs === undefined ? {} : { runTimeoutMs }),
      ...(fetchHosts === undefined ? {} : { fetchHosts }),
    });
    return { ...this.settings };
  }

  async listDrafts(): Promise<DraftSummary[]> {
    await this.#allow("listDrafts");
    return this.store.listDrafts();
  }

  async createDraft(input: CreateDraftInput): Promise<Draft> {
    await this.#allow("createDraft");
    const { files } = parseArgument(CreateDraftInputSchema, input);
    await checkDiskForWrite(this.connection.env);
    return this.store.createDraft(files);
  }

  async openDraft(draftId: string): Promise<Draft> {
    await this.#allow("openDraft");
    return this.store.getDraft(parseArgument(DraftIdSchema, draftId));
  }

  async saveDraft(draftId: string, input: SaveDraftInput): Promise<SaveOutcome> {
    await this.#allow("saveDraft");
    const id = parseArgument(DraftIdSchema, draftId);
    const { baseVersion, files } = parseArgument(SaveDraftInputSchema, input);
    await checkDiskForWrite(this.connection.env);
    return this.store.saveDraft(id, baseVersion, files);
  }

  async deleteDraft(draftId: string): Promise<void> {
    await this.#allow("deleteDraft");
    return this.store.deleteDraft(parseArgument(DraftIdSchema, draftId));
  }

  async runDraft(
    draftId: string,
    payload: JsonValue,
    onEvent?: RunEventListener | null,
    options?: RunOptions | null,
  ): Promise<RunOutcome> {
    const receivedAt = Date.now();
    await this.#allow("runDraft");
    const id = parseArgument(DraftIdSchema, draftId);
    const listener = parseArgument(RunEventListenerSchema, onEvent);
    const draft = await this.store.getDraft(id);
    return launchRun(this.#context(), {
      source: { kind: "draft", draftId: draft.id, version: draft.version },
      scope: draft.id,
      files: draft.files,
      payload,
      options,
      listener,
      timeoutMs: this.settings.runTimeoutMs,
      receivedAt,
      codeKey: `draft:${draft.id}@${draft.version}`,
    });
  }

  async cancelRun(runId: string): Promise<boolean> {
    await this.#allow("cancelRun");
    const controller = this.connection.runs.get(parseArgument(RunIdSchema, runId));
    if (!controller) return false;
    controller.abort({ kind: "cancelled", message: "The run was cancelled by the user." });
    return true;
  }

  /** Runs the saved version's tests and keeps the result as the draft's last test status. */
  async #test(draftId: string, onResult: TestResultListener | undefined): Promise<TestRunSummary> {
    if (this.#testRuns >= MAX_TEST_RUNS_PER_SESSION)
      throw new Error(
        `This session is already running ${MAX_TEST_RUNS_PER_SESSION} test suite, the limit. Wait for it to finish.`,
      );
    this.#testRuns++;
    try {
      // A test run writes its cases' records and the draft's test status: refused, like any write, on a full disk.
      await checkDiskForWrite(this.connection.env);
      const draft = await this.store.getDraft(draftId);
      const summary = await runTestSuite(this.#context(), draft, onResult);
      // A draft deleted while its tests ran has no status to keep; the caller still gets the summary.
      await this.store.recordTestStatus(draft.id, testStatusOf(summary, Date.now())).catch(() => undefined);
      return summary;
    } finally {
      this.#testRuns--;
    }
  }

  async runTests(draftId: string, onResult?: TestResultListener | null): Promise<TestRunSummary> {
    await this.#allow("runTests");
    const id = parseArgument(DraftIdSchema, draftId);
    return this.#test(id, parseArgument(TestResultListenerSchema, onResult));
  }

  async lastTestStatus(draftId: string): Promise<TestStatus | null> {
    await this.#allow("lastTestStatus");
    return this.store.testStatus(parseArgument(DraftIdSchema, draftId));
  }

  async publishDraft(draftId: string, options?: PublishOptions | null): Promise<AgentVersion> {
    await this.#allow("publishDraft");
    const id = parseArgument(DraftIdSchema, draftId);
    const override = parseArgument(PublishOptionsSchema, options)?.overrideTests;
    // A taken endpoint name is refused before any test runs; it is claimed only once they pass.
    await endpoints.checkEndpointName(this.connection.env, this.workspaceId, this.store, id);
    const summary = await this.#test(id, undefined);
    const status = testStatusOf(summary, Date.now());
    const failing = summary.status === "failed" || summary.status === "invalid";
    if (failing && !override) {
      const why =
        summary.status === "invalid"
          ? `its test file is invalid: ${summary.message}`
          : `${summary.failed} of ${summary.total} test cases failed (${summary.results
              .filter((result) => result.status === "failed")
              .map((result) => JSON.stringify(result.name))
              .slice(0, 5)
              .join(", ")})`;
      throw codedError(
        "TESTS_FAILED",
        `Saved #${summary.version} of the draft was not published: ${why}. Fix the gadget or its tests, or publish with { overrideTests: true } to publish it anyway (the version records that).`,
      );
    }
    // Asked again: the draft may have been saved with another name while its tests ran (the version
    // tested is the one published, or none is).
    const endpointName = await endpoints.checkEndpointName(this.connection.env, this.workspaceId, this.store, id);
    const published = await endpoints.publishClaiming<AgentVersion & { endpoint?: string }>(
      this.connection.env,
      this.workspaceId,
      this.store,
      endpointName,
      () =>
        this.store.publishDraft(id, {
          version: summary.version,
          tests: failing ? { ...status, overridden: true } : status,
        }),
    );
    return endpoints.publishedEndpoint(this.connection.env, this.workspaceId, published);
  }

  async listAgents(): Promise<AgentSummary[]> {
    await this.#allow("listAgents");
    // Workers RPC maps the summaries' schemas too deeply for the checker; they are the AgentSummary[] stored.
    const agents: unknown = await this.store.listAgents();
    return (agents as AgentSummary[]).filter((agent) => allowsAgent(this.access, agent));
  }

  getAgent(agentRef: string): AgentTarget {
    // Handed out at once, for pipelining: the stub asks `authorize` and checks the agent on each call.
    const refused = scopeRefusal(this.access, "getAgent");
    if (refused) throw refused;
    if (this.#revoked) throw codedError("FORBIDDEN", REVOKED_KEY);
    this.#checkRevocationSoon();
    this.connection.reserve("agents", this.workspaceId);
    const agent = new AgentTarget(this.#context(), agentRef, () => this.#agents.delete(agent));
    this.#agents.add(agent);
    return agent;
  }

  async listRuns(limit?: number | null, filter?: RunListFilter | null): Promise<RunSummary[]> {
    await this.#allow("listRuns");
    const rows = parseArgument(ListLimitSchema, limit);
    const { agent, draft, via } = parseArgument(RunListFilterSchema, filter) ?? {};
    await this.#records.flush();
    const listed = await this.store.listRuns(rows, {
      ...(agent ? { agent } : {}),
      ...(draft ? { draftId: draft } : {}),
      ...(via ? { via } : {}),
    });
    if (!listed.found)
      throw codedError(
        "AGENT_NOT_FOUND",
        `No published agent "${listed.unknownAgent}" in this workspace to list the runs of. See them with listAgents().`,
      );
    return listed.runs;
  }

  async getRun(runId: string): Promise<RunRecord> {
    await this.#allow("getRun");
    return this.#getRun(runId);
  }

  async #getRun(runId: string): Promise<RunRecord> {
    await this.#records.flush();
    // Workers RPC maps the record's type too deeply for the checker; it is the RunRecord that was stored.
    const record: unknown = await (this.store as unknown as { getRun(id: string): Promise<unknown> }).getRun(
      parseArgument(RunIdSchema, runId),
    );
    return record as RunRecord;
  }

  #countShare(): void {
    if (!this.connection.shares.take())
      throw codedError("RATE_LIMITED", "Too many shares in a minute from this session. Wait a moment.");
  }

  async shareDraft(draftId: string, payload: JsonValue): Promise<{ shareId: string }> {
    await this.#allow("shareDraft");
    const id = parseArgument(DraftIdSchema, draftId);
    const checkedPayload = parseArgument(PayloadSchema, payload);
    this.#countShare();
    const draft = await this.store.getDraft(id);
    const tests = await this.store.testStatus(id);
    const shareId = randomId();
    await this.#storeShare("snapshot", shareId, {
      shareId,
      name: draft.name,
      description: descriptionOf(draft.files),
      files: draft.files,
      payload: checkedPayload,
      createdAt: Date.now(),
      // The last results only when they are for the version being shared.
      ...(tests && tests.version === draft.version ? { tests } : {}),
    });
    return { shareId };
  }

  async shareRun(runId: string): Promise<{ recordId: string }> {
    await this.#allow("shareRun");
    this.#countShare();
    const record = await this.#getRun(runId);
    const recordId = randomId();
    // The same URL rule as the gatekeeper's, again: a run recorded before it kept whole fetch paths.
    const { events, trace } = shapeRecordedFetches(record.events, record.trace);
    await this.#storeShare("record", recordId, {
      recordId,
      name: record.name,
      description: descriptionOf(record.files),
      files: record.files,
      payload: record.payload,
      events,
      droppedEvents: record.droppedEvents,
      outcome: record.outcome,
      startedAt: record.startedAt,
      createdAt: Date.now(),
      ...(trace ? { trace } : {}),
    });
    return { recordId };
  }

  /** Charges the share to this workspace's quota, then stores it. */
  async #storeShare(kind: "snapshot" | "record", id: string, value: Parameters<typeof storeShare>[3]): Promise<void> {
    await checkDiskForWrite(this.connection.env);
    await this.store.chargeShare(kind, id, byteLength(JSON.stringify(value)));
    await storeShare(this.connection.env, kind, id, value, this.workspaceId);
  }

  async forkShare(shareId: string): Promise<Draft> {
    await this.#allow("forkShare");
    const snapshot = await loadShare<ShareSnapshot>(this.connection, "snapshot", shareId);
    await checkDiskForWrite(this.connection.env);
    return this.store.createDraft(snapshot.files);
  }

  async listErrors(): Promise<ErrorGroup[]> {
    await this.#allow("listErrors");
    return this.store.listErrors();
  }

  async usage(): Promise<WorkspaceUsage> {
    await this.#allow("usage");
    // The session's own run records count as soon as it has their outcomes.
    await this.#records.flush();
    return this.store.usage();
  }

  async runCode(code: string, onEvent?: RunEventListener | null, options?: RunOptions | null): Promise<RunOutcome> {
    const receivedAt = Date.now();
    await this.#allow("runCode");
    const access = this.access;
    return runCodeMode(this.#context(), {
      code: parseArgument(CodeModeCodeSchema, code),
      listener: parseArgument(RunEventListenerSchema, onEvent),
      options,
      receivedAt,
      ...(access.kind === "key" && access.agents !== null
        ? { allowsAgent: (agent: { agentId: string }) => allowsAgent(access, agent) }
        : {}),
    });
  }

  async codeModeTypes(): Promise<string> {
    await this.#allow("codeModeTypes");
    const agents = await this.listAgents();
    return codeModeTypesText(agents);
  }

  async setSecret(name: string, value: string): Promise<SecretInfo> {
    await this.#allow("setSecret");
    return secrets.setSecret(this.connection.env, this.workspaceId, this.store, name, value);
  }

  async listSecrets(): Promise<SecretInfo[]> {
    await this.#allow("listSecrets");
    return secrets.listSecrets(this.store);
  }

  async deleteSecret(name: string): Promise<boolean> {
    await this.#allow("deleteSecret");
    return secrets.deleteSecret(this.store, name);
  }

  // HTTP endpoints and schedules of the published agents.
  async listEndpoints(): Promise<EndpointInfo[]> {
    await this.#allow("listEndpoints");
    return endpoints.listEndpoints(this.connection.env, this.store);
  }

  async listSchedules(): Promise<ScheduleInfo[]> {
    await this.#allow("listSchedules");
    return schedules.listSchedules(this.store);
  }

  async pauseSchedules(agentRef: string, paused: boolean): Promise<ScheduleInfo[]> {
    await this.#allow("pauseSchedules");
    return schedules.pauseSchedules(this.store, agentRef, paused);
  }

  // npm packages.
  get #packages(): packages.PackagesContext {
    return { env: this.connection.env, workspaceId: this.workspaceId, store: this.store };
  }

  async resolveDependencies(input: ResolveDependenciesInput): Promise<ResolveOutcome> {
    await this.#allow("resolveDependencies");
    return packages.resolveDependencies(this.#packages, input);
  }

  async lookupPackage(name: string, range?: string | null): Promise<PackageLookup> {
    await this.#allow("lookupPackage");
    return packages.lookupPackage(this.#packages, name, range);
  }

  async packageTypes(lock: string): Promise<PackageTypeFiles> {
    await this.#allow("packageTypes");
    return packages.packageTypes(this.#packages, lock);
  }

  async packageFile(lock: string, path: string): Promise<PackageFileText> {
    await this.#allow("packageFile");
    return packages.packageFile(this.#packages, lock, path);
  }

  async getRegistry(): Promise<RegistryInfo> {
    await this.#allow("getRegistry");
    return packages.getRegistry(this.#packages);
  }

  async setRegistry(input: RegistryInput | null): Promise<RegistryInfo> {
    await this.#allow("setRegistry");
    return packages.setRegistry(this.#packages, input);
  }

  async createKey(input: CreateKeyInput): Promise<CreatedKey> {
    await this.#allow("createKey");
    return apiKeys.createKey(this.connection.env, this.workspaceId, this.store, input);
  }

  async listKeys(): Promise<ApiKeyInfo[]> {
    await this.#allow("listKeys");
    return apiKeys.listKeys(this.store);
  }

  async revokeKey(keyId: string): Promise<boolean> {
    await this.#allow("revokeKey");
    const revoked = await apiKeys.revokeKey(this.store, keyId);
    if (revoked) revokeKeySessions(keyId);
    return revoked;
  }

  /** A key session handing out stubs without other calls still learns, within a second, that its key was revoked. */
  #checkRevocationSoon(): void {
    if (this.access.kind !== "key" || Date.now() - this.#checkedAt < REVOCATION_CHECK_MS) return;
    this.#checkedAt = Date.now();
    detached(
      "a key session's revocation check",
      this.#authorize().catch((error: unknown) => {
        if (errorCode(error) !== "FORBIDDEN") throw error;
      }),
    );
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#untrack?.();
    void this.#records.flush();
    this.connection.release("sessions", this.workspaceId, this.access.kind === "key" ? this.access.keyId : undefined);
  }
}
