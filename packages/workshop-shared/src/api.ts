/**
 * The Workshop contract: every type that crosses the wire between a client (browser IDE, Node backend,
 * embed) and the Workshop backend. The backend `implements` these interfaces; clients use them as
 * types through Cap'n Web stubs. Types are not validation: what a client sends is defined once as a
 * schema (`schemas/`), its type inferred here, and the backend checks every argument with that schema.
 * An optional argument may be left out, undefined or null: all three mean none.
 */

import type * as v from "valibot";
import type { EncodedValue } from "./console-values.ts";
import type { CreateKeyInputSchema } from "./schemas/api-keys.ts";
import type {
  CreateDraftInputSchema,
  PublishOptionsSchema,
  RunOptionsSchema,
  SaveDraftInputSchema,
  SettingsChangesSchema,
} from "./schemas/calls.ts";
import type { GadgetFileSchema, GadgetGrantsSchema, GadgetManifestSchema } from "./schemas/gadget.ts";
import type {
  GadgetLockSchema,
  LockedPackageSchema,
  RegistryInputSchema,
  ResolveDependenciesInputSchema,
} from "./schemas/packages.ts";
import type { RunListFilterSchema, RunViaSchema } from "./schemas/run-list.ts";
import type { TestCaseSchema, TestExpectationsSchema } from "./schemas/test-file.ts";
import type { EndpointResponseSchema } from "./schemas/endpoint-response.ts";
import type { GadgetTriggersSchema } from "./schemas/triggers.ts";
import type { JsonValue, RunErrorKind } from "./wire-basics.ts";

// ---------------------------------------------------------------------------------------------
// Values

export type { JsonValue } from "./wire-basics.ts";

// ---------------------------------------------------------------------------------------------
// Gadget format

/** One source file of a gadget. `path` is relative (`index.ts`, `lib/util.ts`, `gadget.json`). */
export type GadgetFile = v.InferOutput<typeof GadgetFileSchema>;

/** The grants a gadget asks for in its manifest (`fetch`, `kv`, `catalog`). Only these reach `env`. */
export type GadgetGrants = v.InferOutput<typeof GadgetGrantsSchema>;

/** `gadget.json`'s `triggers`: an HTTP endpoint (`http`) and `schedules`. */
export type GadgetTriggers = v.InferOutput<typeof GadgetTriggersSchema>;

/** `gadget.json`, checked: what the gadget is, where it starts and what it may use (grants default to none). */
export type GadgetManifest = v.InferOutput<typeof GadgetManifestSchema>;

export { MANIFEST_PATH } from "./wire-basics.ts";
export { LOCK_PATH } from "./wire-basics.ts";

// ---------------------------------------------------------------------------------------------
// Drafts

export interface DraftSummary {
  id: string;
  name: string;
  version: number;
  createdAt: number;
  updatedAt: number;
}

export interface Draft extends DraftSummary {
  files: GadgetFile[];
}

export type CreateDraftInput = v.InferOutput<typeof CreateDraftInputSchema>;

/** An edit: `baseVersion` is the version it was based on; a save based on an older version is a conflict. */
export type SaveDraftInput = v.InferOutput<typeof SaveDraftInputSchema>;

/** A save either lands or reports the newer version it would have overwritten. */
export type SaveOutcome =
  | { status: "saved"; draft: DraftSummary }
  | { status: "conflict"; current: Draft; message: string };

// ---------------------------------------------------------------------------------------------
// Agents (published, immutable versions of a draft)

/** A JSON Schema (draft 2020-12) as a manifest declares it: a JSON object (its values typed `unknown`: `JsonValue` nested this deep is more than the Durable Object stub types can map). */
export type JsonSchema = { [key: string]: unknown };

/** The schemas a version's manifest declares (`inputSchema`, `outputSchema` in `gadget.json`); absent when it declares none. */
export interface AgentSchemas {
  /** What `run`'s payload must be; a payload that breaks it ends `invalid` before any code runs. */
  inputSchema?: JsonSchema;
  /** What the result must be; a result that breaks it ends the run `invalid`. */
  outputSchema?: JsonSchema;
}

export interface AgentVersion extends AgentSchemas {
  agentId: string;
  name: string;
  version: number;
  description: string;
  publishedAt: number;
  grants: GadgetGrants;
  /** The test cases this version passed when it was published (absent for versions published before tests existed). */
  tests?: TestStatus;
  /** In `publishDraft`'s answer, when the version declares `triggers.http`: its endpoint's full URL on the gadget origin. */
  endpointUrl?: string;
}

export interface AgentSummary extends AgentSchemas {
  agentId: string;
  name: string;
  description: string;
  /** Versions are 1…latestVersion; each is immutable. */
  latestVersion: number;
  draftId: string;
  updatedAt: number;
  /** The latest version's grants (and, from `AgentSchemas`, its schemas). */
  grants: GadgetGrants;
  /** The latest version's README.md (or AGENTS.md), cut at 64 KB; empty when it has none. */
  docs: string;
  /** The latest version's test results when it was published. */
  tests?: TestStatus;
}

// ---------------------------------------------------------------------------------------------
// Runs

export type LogLevel = "log" | "info" | "warn" | "error" | "debug";

/** One frame of a stack, mapped back to the gadget's own file when it came from there. */
export interface StackFrame {
  fn: string;
  /** The gadget's file (`index.ts`) or `<runtime>` for frames outside the gadget. */
  file: string;
  line: number;
  column: number;
}

export interface RunErrorInfo {
  name: string;
  message: string;
  /** The stack as text, with gadget frames rewritten to `file:line:column` of the gadget's sources. */
  stack: string;
  frames: StackFrame[];
}

export interface RunTimings {
  /** Waiting for a free slot. */
  queueMs: number;
  /** Validation, transpiling and loading the isolate. */
  buildMs: number;
  /** The gadget's own `run`. */
  runMs: number;
  totalMs: number;
}

export type { RunErrorKind } from "./wire-basics.ts";

/** How a run ended. Crosses every boundary as data, never as a thrown error. */
export type RunOutcome =
  | { status: "ok"; runId: string; result: JsonValue; timings: RunTimings }
  | {
      status: "error";
      runId: string;
      kind: RunErrorKind;
      /** What happened, the details and how to fix it. */
      message: string;
      error?: RunErrorInfo;
      /**
       * Set on an `invalid` outcome when what the caller sent was refused before the gadget ran (the
       * payload, the run options, the agent's inputSchema): the caller's to fix, not the gadget's.
       */
      inputRefused?: true;
      timings: RunTimings;
    };

/** Streamed to the caller while a run goes on. `t` is milliseconds since the run started. */
export type RunEvent =
  | { type: "status"; runId: string; seq: number; t: number; status: "queued" | "building" | "running" }
  | ({
      type: "log";
      runId: string;
      seq: number;
      t: number;
      level: LogLevel;
      values: EncodedValue[];
      /** Set when the line came from an agent this run called through the catalog. */
      from?: EventSource;
    } & LogLayout)
  | {
      type: "error";
      runId: string;
      seq: number;
      t: number;
      error: RunErrorInfo;
      uncaught: boolean;
      from?: EventSource;
    }
  | { type: "dropped"; runId: string; seq: number; t: number; count: number }
  /** A capability call the overseer performed (or refused) for the gadget, with its time. */
  | {
      type: "trace";
      runId: string;
      seq: number;
      t: number;
      capability: "fetch" | "kv" | "catalog";
      summary: string;
      ok: boolean;
      ms: number;
      from?: EventSource;
    }
  | { type: "end"; runId: string; seq: number; t: number; outcome: RunOutcome };

/**
 * Where a console line sits, as browsers lay out `console.group` and `console.table`. Every field is
 * absent in the common case (a plain line at the top level), so older records and clients read the same.
 */
export interface LogLayout {
  /** `console.group` nesting of the run when the line was written, 1 up to `MAX_CONSOLE_GROUP_DEPTH`. */
  depth?: number;
  /**
   * The line is a group's label (`console.group`, or `groupCollapsed`: shown closed): the lines after it
   * one level deeper, up to its `groupEnd`, belong to it.
   */
  group?: "open" | "collapsed";
  /** The line's first value is a `console.table` of rows; `columns` are shown after the index column. */
  table?: { columns: string[] };
}

/** The nested run (an agent called through the catalog) an event came from. */
export interface EventSource {
  runId: string;
  agent: string;
}

/** A callback the caller passes to receive run events as they happen. */
export type RunEventListener = (event: RunEvent) => void | Promise<void>;

/** Options of one run (`timeoutMs`: its wall-clock limit, within the server's maximum). */
export type RunOptions = NonNullable<v.InferOutput<typeof RunOptionsSchema>>;

/** Changes to a workspace's settings: any of `runTimeoutMs` and `fetchHosts`. */
export type WorkspaceSettingsChanges = v.InferOutput<typeof SettingsChangesSchema>;

/**
 * Per-workspace settings: `runTimeoutMs`, the default wall-clock limit of a run (1 ms up to the server's
 * maximum), and `fetchHosts`, the only hosts any manifest here may be granted for fetch (null: no cap).
 */
export type WorkspaceSettings = Required<WorkspaceSettingsChanges>;

/**
 * What a run ran: a draft's saved version, a published agent's version, or code sent to run as it is
 * (Code Mode: `Session.runCode`, the MCP `run_code` tool).
 */
export type RunSource =
  | { kind: "draft"; draftId: string; version: number }
  | { kind: "agent"; agentId: string; version: number }
  | { kind: "code" };

/**
 * Who started a run: a client over the RPC API (absent in older records), an MCP client, a request to
 * the agent's HTTP endpoint, or one of its schedules.
 */
export type RunVia = v.InferOutput<typeof RunViaSchema>;

/** What triggered a run that started on its own (`via` "http" or "schedule"). */
export type RunTrigger =
  | {
      kind: "http";
      method: string;
      /** The path below the endpoint, shaped as fetch paths are in traces (no secrets in segments). */
      path: string;
      /** The status the endpoint answered with. */
      status: number;
    }
  | {
      kind: "schedule";
      /** The schedule as its manifest wrote it (`cron 0 9 * * 1`, `every 10m`). */
      schedule: string;
      /** The slot it fired for (epoch ms, UTC). */
      scheduledAt: number;
    };

export interface RunSummary {
  runId: string;
  source: RunSource;
  /** Absent means "rpc". */
  via?: RunVia;
  /** For runs via "http" or "schedule": what fired them. */
  trigger?: RunTrigger;
  name: string;
  status: RunOutcome["status"];
  kind?: RunErrorKind;
  startedAt: number;
  totalMs: number;
}

export interface RunRecord extends RunSummary {
  payload: JsonValue;
  files: GadgetFile[];
  events: RunEvent[];
  /** Events beyond the stored cap were counted, not kept. */
  droppedEvents: number;
  outcome: RunOutcome;
  /** Where the run's time went (absent in records made before traces existed). */
  trace?: RunTrace;
}

// ---------------------------------------------------------------------------------------------
// Traces: where a run's time went

export type SpanKind = "run" | "queue" | "build" | "execute" | "kv" | "fetch" | "catalog";

/** One timed step of a run. Times are milliseconds from the trace's `startedAt`. */
export interface TraceSpan {
  /** Unique within its trace. */
  spanId: string;
  /** The enclosing span; absent only for the root `run` span. */
  parentId?: string;
  kind: SpanKind;
  /** What a reader sees: `run echo`, `kv.get("k")`, `GET 127.0.0.1:8080/path`, `catalog helper@2`. */
  name: string;
  startMs: number;
  durationMs: number;
  ok: boolean;
  /** Facts about the step (host, status, bytes, op…); never query strings, headers or kv values. */
  attributes: Record<string, string | number | boolean>;
  /** On a nested agent's `run` span: that run's own record. */
  runId?: string;
}

export interface RunTrace {
  /** When the run was received (epoch ms); the `queue` span starts here. */
  startedAt: number;
  /** Parents before children, in start order within each parent. */
  spans: TraceSpan[];
  /** Spans left out because the trace reached its caps (count, size). */
  droppedSpans: number;
  /**
   * The W3C trace id the run joined (a `traceparent` on the request to its HTTP endpoint); absent, the
   * trace id is derived from the run id (`traceIdOf`).
   */
  traceId?: string;
  /** The caller's span the run's root span is a child of (from that `traceparent`). */
  parentSpanId?: string;
}

// ---------------------------------------------------------------------------------------------
// Test cases (`gadget.tests.json`)

export { TESTS_PATH } from "./wire-basics.ts";

/** What a case's run must show: `outcome`, `equals`, `contains`, `matches`, `noErrorLogs`, `maxMs`. */
export type TestExpectations = v.InferOutput<typeof TestExpectationsSchema>;

/** One case of `gadget.tests.json`: its `name`, the `input` it runs with (null when left out), `expect`. */
export type TestCase = v.InferOutput<typeof TestCaseSchema>;

/** One expectation that did not hold: the structured diff of expected and actual. */
export interface TestFailure {
  check: "outcome" | "equals" | "contains" | "matches" | "noErrorLogs" | "maxMs";
  /** Where in the result, as a JSON path (`$`, `$.items[2].name`). */
  path: string;
  expected: JsonValue;
  /** `null` also stands for "missing" (then `missing` is true). */
  actual: JsonValue;
  missing?: boolean;
  message: string;
}

export interface TestCaseResult {
  index: number;
  name: string;
  status: "passed" | "failed";
  /** The case's run: an ordinary run record. */
  runId: string;
  /** The case's outcome; a result past MAX_TEST_RESULT_BYTES is replaced by a note (see `resultTruncated`). */
  outcome: RunOutcome;
  /** The result was too large to carry here: the run record (`runId`) has it whole. */
  resultTruncated?: boolean;
  failures: TestFailure[];
  errorLogs: number;
  /** From the case's start to its outcome, as the Workshop measured it. */
  durationMs: number;
}

export type TestRunSummary =
  | {
      status: "passed" | "failed" | "none";
      draftId: string;
      version: number;
      total: number;
      passed: number;
      failed: number;
      durationMs: number;
      results: TestCaseResult[];
    }
  /** The test file does not parse or breaks a rule; nothing ran. */
  | { status: "invalid"; draftId: string; version: number; message: string };

/** A compact record of a test run, kept with a draft version, an agent version or a share. */
export interface TestStatus {
  status: "passed" | "failed" | "none" | "invalid";
  version: number;
  at: number;
  total: number;
  passed: number;
  failed: number;
  cases: { name: string; status: "passed" | "failed"; runId: string }[];
  /** Published although its tests failed, because the publisher asked to. */
  overridden?: boolean;
}

export type TestResultListener = (result: TestCaseResult) => void | Promise<void>;

/** Options of `publishDraft` (`overrideTests`: publish even when the tests fail; the version records it). */
export type PublishOptions = NonNullable<v.InferOutput<typeof PublishOptionsSchema>>;

// ---------------------------------------------------------------------------------------------
// Shares: immutable snapshots anyone with the link can open

/** A gadget as it was shared: files and payload, never changing. */
export interface ShareSnapshot {
  shareId: string;
  name: string;
  description: string;
  files: GadgetFile[];
  payload: JsonValue;
  createdAt: number;
  /** The draft's last test results, when they were for the shared version. */
  tests?: TestStatus;
}

/** A run as it was shared: the snapshot it ran, its full event stream, outcome and timings. */
export interface SharedRunRecord {
  recordId: string;
  name: string;
  description: string;
  files: GadgetFile[];
  payload: JsonValue;
  events: RunEvent[];
  droppedEvents: number;
  outcome: RunOutcome;
  startedAt: number;
  createdAt: number;
  trace?: RunTrace;
}

/** A share opened by its link; no workspace needed. Runs are anonymous, rate-limited, with strict limits. */
export interface PublicShare {
  snapshot(): Promise<ShareSnapshot>;
  /** Runs the snapshot — or, in an embed that edited them, these files instead. */
  run(payload: JsonValue, onEvent?: RunEventListener | null, files?: GadgetFile[] | null): Promise<RunOutcome>;
  /** Cancels a run this same session started (its id is on every event); false when it is not running. */
  cancel(runId: string): Promise<boolean>;
}

/** A shared run record opened by its link. */
export interface PublicRecord {
  record(): Promise<SharedRunRecord>;
  /** Runs the recorded snapshot again with the recorded payload (anonymous, rate-limited). */
  runAgain(onEvent?: RunEventListener | null): Promise<RunOutcome>;
  /** Cancels a run this same session started; false when it is not running. */
  cancel(runId: string): Promise<boolean>;
}

// ---------------------------------------------------------------------------------------------
// Errors seen in a workspace (aggregated by fingerprint)

export interface ErrorGroup {
  fingerprint: string;
  name: string;
  message: string;
  count: number;
  firstSeen: number;
  lastSeen: number;
  /**
   * The last occurrence: `source` (`draft:<draftId>` or `agent:<agentId>`), `runId`, `kind`, and the
   * `gadget` name and `version` that failed.
   */
  lastContext: Record<string, string>;
  sampleStack: string;
}

// ---------------------------------------------------------------------------------------------
// RPC interfaces

export interface WorkspaceCredentials {
  workspaceId: string;
  /** The workspace capability: whoever holds it can use the workspace. Keep it secret. */
  token: string;
}

/** A published agent, callable from any backend. */
export interface Agent {
  describe(): Promise<AgentVersion>;
  /** Runs the agent; resolves with its result, rejects with an error that says what happened and where. */
  run(payload: JsonValue): Promise<JsonValue>;
  /** Runs the agent and streams its events; never rejects for a failed run (the outcome says). */
  runWithEvents(
    payload: JsonValue,
    onEvent?: RunEventListener | null,
    options?: RunOptions | null,
  ): Promise<RunOutcome>;
}

/** The caller's workspace, reached with its token. */
export interface Session {
  workspace(): Promise<{ workspaceId: string }>;
  getSettings(): Promise<WorkspaceSettings>;
  /** Changes settings; they apply to this session at once and to sessions opened afterwards. */
  updateSettings(changes: WorkspaceSettingsChanges): Promise<WorkspaceSettings>;

  listDrafts(): Promise<DraftSummary[]>;
  createDraft(input: CreateDraftInput): Promise<Draft>;
  openDraft(draftId: string): Promise<Draft>;
  saveDraft(draftId: string, input: SaveDraftInput): Promise<SaveOutcome>;
  deleteDraft(draftId: string): Promise<void>;

  /** Runs the draft's latest saved version; events reach `onEvent` while the run goes on. */
  runDraft(
    draftId: string,
    payload: JsonValue,
    onEvent?: RunEventListener | null,
    options?: RunOptions | null,
  ): Promise<RunOutcome>;
  /** Stops a run of this session; resolves true when a run was stopped. */
  cancelRun(runId: string): Promise<boolean>;

  /**
   * Runs every case of the draft's saved version's `gadget.tests.json`, a few at a time, streaming one
   * result per case; each case's run is an ordinary run record.
   */
  runTests(draftId: string, onResult?: TestResultListener | null): Promise<TestRunSummary>;
  /** The draft's last test results (for its current version or an older one), if any. */
  lastTestStatus(draftId: string): Promise<TestStatus | null>;

  /**
   * Runs the draft's tests, then publishes its saved version; refuses when they fail, unless
   * `overrideTests` is set. The version records its test results.
   */
  publishDraft(draftId: string, options?: PublishOptions | null): Promise<AgentVersion>;
  listAgents(): Promise<AgentSummary[]>;
  /** `agentId` runs the latest version, `agentId@3` a fixed one. Usable pipelined. */
  getAgent(agentRef: string): Agent;

  /** The latest runs, newest first; `filter` narrows them to one agent or one draft, and/or how they started (the invocation log). */
  listRuns(limit?: number | null, filter?: RunListFilter | null): Promise<RunSummary[]>;
  getRun(runId: string): Promise<RunRecord>;

  /** Makes an immutable snapshot of the draft's saved files with this payload; the link is `/s/<shareId>`. */
  shareDraft(draftId: string, payload: JsonValue): Promise<{ shareId: string }>;
  /** Makes an immutable copy of a run's record; the link is `/r/<recordId>`. Runs are private until shared. */
  shareRun(runId: string): Promise<{ recordId: string }>;
  /** Copies a shared snapshot into this workspace as a new draft. */
  forkShare(shareId: string): Promise<Draft>;

  listErrors(): Promise<ErrorGroup[]>;
  /** What this workspace stores against its byte quota. */
  usage(): Promise<WorkspaceUsage>;

  /**
   * Code Mode: runs `code` — the body of an async function, as an LLM writes it — in a fresh isolate
   * whose only capability is `agents`, one function per published agent this session may call (each a
   * nested run with the agent's own grants). Its `return` value is the result. An ordinary run with a
   * record (`source.kind` "code") and a trace.
   */
  runCode(code: string, onEvent?: RunEventListener | null, options?: RunOptions | null): Promise<RunOutcome>;
  /** The TypeScript declaration of `agents` that code given to `runCode` is written against. */
  codeModeTypes(): Promise<string>;

  /** Sets (or replaces) a workspace secret. The value is never returned again, to any client. */
  setSecret(name: string, value: string): Promise<SecretInfo>;
  /** The workspace's secrets: names, sizes, when set, which agents grant them — never values. */
  listSecrets(): Promise<SecretInfo[]>;
  /** Deletes a secret; false when there was none by that name. */
  deleteSecret(name: string): Promise<boolean>;

  /** The HTTP endpoints of the workspace's published agents (their latest versions' `triggers.http`). */
  listEndpoints(): Promise<EndpointInfo[]>;
  /** The schedules of the workspace's published agents, with when each fires next. */
  listSchedules(): Promise<ScheduleInfo[]>;
  /** Pauses or resumes all schedules of an agent (by id or name). */
  pauseSchedules(agentRef: string, paused: boolean): Promise<ScheduleInfo[]>;

  /**
   * Resolves `dependencies` against the workspace's registry and answers the text of the lock to keep as
   * `gadget.lock.json`: every package of the tree fetched, checked against its integrity and stored
   * first, so whatever runs from the lock never needs the registry again. Packages of `lock` that still
   * satisfy their ranges are kept unless named in `update`.
   */
  resolveDependencies(input: ResolveDependenciesInput): Promise<ResolveOutcome>;
  /** The newest version of a package matching `range` (absent: its `latest` tag), as a quick fix offers it. */
  lookupPackage(name: string, range?: string | null): Promise<PackageLookup>;
  /** The declaration files of a locked tree (each package's own types, or its `@types/…`), for an editor. */
  packageTypes(lock: string): Promise<PackageTypeFiles>;
  /** One file of a locked package, read-only (`path` like "node_modules/zod/index.js"). */
  packageFile(lock: string, path: string): Promise<PackageFileText>;
  /** The registry this workspace resolves packages against (never its token). */
  getRegistry(): Promise<RegistryInfo>;
  /** Sets the workspace's registry and its token (stored sealed, never shown again); null: the Workshop's default. */
  setRegistry(input: RegistryInput | null): Promise<RegistryInfo>;

  /** Makes an API key (only with the workspace token); the key itself is in this answer only. */
  createKey(input: CreateKeyInput): Promise<CreatedKey>;
  /** The workspace's keys, never their secrets (only with the workspace token). */
  listKeys(): Promise<ApiKeyInfo[]>;
  /** Revokes a key at once, its live sessions included; false when there was no such key (only with the workspace token). */
  revokeKey(keyId: string): Promise<boolean>;
}

/**
 * Narrows `listRuns`: runs of one agent (its id, or its name: every published agent of that name; an
 * unknown one is refused with AGENT_NOT_FOUND), or of one draft (its id: runs of its code, test cases
 * included; an unknown id lists none), started one way.
 */
export type RunListFilter = NonNullable<v.InferOutput<typeof RunListFilterSchema>>;

// ---------------------------------------------------------------------------------------------
// Secrets and triggers

export interface SecretInfo {
  name: string;
  /** The value's size in UTF-8 bytes. */
  bytes: number;
  updatedAt: number;
  /** Names of the published agents whose latest version grants it (as `env.secrets` or in fetch headers). */
  usedBy: string[];
}

export interface EndpointInfo {
  agentId: string;
  agentName: string;
  /** The path segment after `/h/`: an unguessable id, or the name the manifest picked. */
  endpoint: string;
  /** The endpoint's full URL on the gadget origin (never the IDE's). */
  url: string;
  response: "json" | "full";
}

/**
 * The input of an agent run by a request to its HTTP endpoint (`triggers.http`). In the run's record
 * the values of credential headers and query parameters (`authorization`, names with `token`, `secret`,
 * `password`, `api-key`…) read `[redacted]`; the gadget itself gets them as sent.
 */
export type EndpointRequest = {
  method: string;
  /** The path below the endpoint, as sent (percent-escapes kept): `/h/<endpoint>/a/b` gives `/a/b`, `/h/<endpoint>` gives `/`. */
  path: string;
  /** Query parameters; a name given more than once has the list of its values. */
  query: { [name: string]: string | string[] };
  /** Request headers by lower-case name (repeated ones joined with ", "); never `cookie`. */
  headers: { [name: string]: string };
  /**
   * JSON when the content type is JSON and the body parses, else the body as text; null without a body.
   * With `triggers.http.body: "text"`, always the text as sent (bytes that are not UTF-8 replaced by U+FFFD).
   */
  body: JsonValue;
};

/** What an agent with `triggers.http.response: "full"` returns: the HTTP response, checked (a bad one answers 502). */
export type EndpointResponse = v.InferOutput<typeof EndpointResponseSchema>;

export interface ScheduleInfo {
  agentId: string;
  agentName: string;
  version: number;
  /** As the manifest wrote it: `cron 0 9 * * 1` or `every 10m`. */
  schedule: string;
  paused: boolean;
  /** Next firing (epoch ms), null while paused. */
  nextAt: number | null;
  /** When it last fired (epoch ms), null if never. */
  lastAt: number | null;
  /** How the last firing ended; null before the first one ends (or while the last one still runs). */
  lastOutcome: "ok" | RunErrorKind | null;
  /** Firings skipped because the previous run of this schedule was still going. */
  skipped: number;
}

// ---------------------------------------------------------------------------------------------
// API keys: what to hand to an LLM client or a backend instead of the workspace token

/**
 * `call`: list and run published agents (and Code Mode, MCP) — nothing else. `full`: everything the
 * workspace token can do except managing keys.
 */
export type ApiKeyScope = "call" | "full";

/**
 * A new key: `name` for people (`claude-desktop`, `billing-backend`), 1–64 characters, trimmed; its
 * `scope`; and `agents`, the only agents (ids or names, each found when the key is made and kept by id)
 * that may be listed and run with it — left out or null: all of them.
 */
export type CreateKeyInput = v.InferOutput<typeof CreateKeyInputSchema>;

export interface ApiKeyInfo {
  keyId: string;
  name: string;
  scope: ApiKeyScope;
  /** The ids of the agents the key is limited to, or null for all. */
  agents: string[] | null;
  createdAt: number;
  /** When it last opened a session or served an MCP request (to the minute), null if never. */
  lastUsedAt: number | null;
}

/** A new key: `key` is shown this once (the Workshop keeps only its hash). */
export interface CreatedKey {
  key: string;
  info: ApiKeyInfo;
}

/** Bytes a workspace stores, by kind, against its quota (WORKSPACE_QUOTA_BYTES). */
export interface WorkspaceUsage {
  quotaBytes: number;
  usedBytes: number;
  bytes: {
    drafts: number;
    versions: number;
    records: number;
    kv: number;
    shares: number;
    /**
     * npm packages from the workspace's own registry, stored for it alone (the default registry's are
     * shared by every workspace and charged to none). Absent from a Workshop that predates it.
     */
    packages?: number;
  };
}

/** The object a Cap'n Web session at `/api` starts with. */
export interface WorkshopApi {
  /** Creates a new, empty workspace and returns its credentials. */
  createWorkspace(): Promise<WorkspaceCredentials>;
  /**
   * Authenticates in-band with the workspace token or an API key (`gk_…`); usable pipelined
   * (`api.getSession(token).listDrafts()`). A key's session refuses what its scope does not allow.
   */
  getSession(token: string): Session | Promise<Session>;
  /** A shared snapshot by its id (pipelined); unknown and malformed ids fail alike. */
  openShare(shareId: string): PublicShare | Promise<PublicShare>;
  /** A shared run record by its id (pipelined); unknown and malformed ids fail alike. */
  openRecord(recordId: string): PublicRecord | Promise<PublicRecord>;
  /** Round-trip check, used for health and latency measurements. */
  ping(): Promise<"pong">;
  /** Live server-side objects of this connection: disposing a stub on the client lowers these. */
  connectionStats(): Promise<ConnectionStats>;
}

export interface ConnectionStats {
  sessions: number;
  agents: number;
  runs: number;
  /** Open share and record targets (`openShare`, `openRecord` results not yet disposed). */
  links: number;
}

/** `gadget.lock.json` parsed. */
export type GadgetLock = v.InferOutput<typeof GadgetLockSchema>;
/** One package of a lock. */
export type LockedPackage = v.InferOutput<typeof LockedPackageSchema>;
export type ResolveDependenciesInput = v.InferOutput<typeof ResolveDependenciesInputSchema>;
export type RegistryInput = v.InferOutput<typeof RegistryInputSchema>;

/** Why a resolution (or a build reading a lock) failed; `package` names the one at fault when there is one. */
export type PackageErrorKind =
  | "invalid"
  | "unknown-package"
  | "no-matching-version"
  | "registry-unreachable"
  | "registry-timeout"
  | "registry-garbage"
  | "integrity"
  | "too-large"
  | "unsafe-tarball"
  | "bad-package"
  | "cycle"
  | "stale-lock"
  /** The Workshop would not store it: its disk is nearly full, or the workspace's quota is. */
  | "storage-full";

export type ResolveOutcome =
  | {
      status: "ok";
      /** The text to write as `gadget.lock.json`. */
      lock: string;
      /** Every package of the tree, direct ones first. */
      packages: { path: string; name: string; version: string }[];
    }
  | { status: "error"; kind: PackageErrorKind; package?: string; message: string };

export interface PackageLookup {
  name: string;
  version: string;
  description?: string;
}

/** Declarations for an editor: paths like "node_modules/zod/index.d.ts" (package.json files included). */
export interface PackageTypeFiles {
  files: { path: string; content: string }[];
}

export interface PackageFileText {
  path: string;
  content: string;
}

export interface RegistryInfo {
  url: string;
  /** True when this is the Workshop's default registry (no workspace setting). */
  isDefault: boolean;
  hasToken: boolean;
}
