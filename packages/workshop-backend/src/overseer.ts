/**
 * The overseer runs one gadget from files to outcome: validate → build (transpile, hash) → execute in
 * an isolate with only the granted env → stream events → outcome → run record → one log line. It
 * knows nothing of Hono, Cap'n Web or storage: callers hand it files and a listener and get data back.
 */

import type { CapturedError } from "@gadgets/backend-utils/error-reporting";
import type { Logger } from "@gadgets/backend-utils/logger";
import type {
  GadgetFile,
  GadgetGrants,
  GadgetManifest,
  JsonValue,
  LogLevel,
  RunErrorInfo,
  RunErrorKind,
  RunEventListener,
  RunOutcome,
  RunRecord,
  RunSummary,
  RunTrigger,
  RunVia,
  RunTimings,
} from "@gadgets/workshop-shared/api";
import { type EncodedValue, sanitizeEncodedValues } from "@gadgets/workshop-shared/console-values";
import {
  CONSOLE_CAPS,
  DEFAULT_RUN_TIMEOUT_MS,
  MAX_EVENTS_PER_RUN,
  MAX_RESULT_BYTES,
  MAX_RUN_TIMEOUT_MS,
  RUN_CPU_MS,
  RUN_QUEUE_WAIT_MS,
} from "@gadgets/workshop-shared/limits";
import {
  byteLength,
  type Checked,
  checkFiles,
  checkManifest,
  checkPayload,
  checkTimeoutMs,
} from "@gadgets/workshop-shared/validate";
import { schemaMismatch, validateJson } from "@gadgets/workshop-shared/json-schema";
import { grantedSecretNames } from "@gadgets/workshop-shared/schemas";
import { buildGadget, cachedBuild, type GadgetBuild } from "./build/gadget-build.ts";
import { PARSED_PER_CHAR, PREPARED_MANIFEST_BYTES } from "./isolate-caches.ts";
import type { PackageSource } from "./packages/package-source.ts";
import { type CapabilityServices, createCapabilityHandler } from "./capabilities.ts";
import { mapError } from "./build/stack-map.ts";
import { type ExecuteResult, type Executor, hasGrants, type RawError } from "./executors/executor.ts";
import { LRUCache } from "lru-cache";
import { sanitizeLogLayout } from "./log-layout.ts";
import { type RunEventBody, RunEventStream } from "./run-events.ts";
import { NO_REDACTION, type Redactor, secretRedactor } from "./secret-redactor.ts";
import { type TraceJoin, TraceRecorder } from "./trace-recorder.ts";

export interface RunRequest {
  runId: string;
  /** Where the code runs: the Worker Loader directly, or the local runner pool. */
  executor: Executor;
  workspaceId: string;
  source: RunSummary["source"];
  /** Who started it, as its record says (left out: a client over the RPC API). */
  via?: RunVia;
  /** What fired it (an HTTP request, a schedule), as its record says; a function when it depends on the outcome (the HTTP status). */
  trigger?: RunTrigger | ((outcome: RunOutcome) => RunTrigger);
  /** What the record and the log keep as the payload instead (an HTTP request with its credentials redacted). */
  recordedPayload?: JsonValue;
  /** A caller's trace the run joins (an HTTP request's traceparent), and its root span's id. */
  traceJoin?: TraceJoin;
  files: readonly GadgetFile[];
  /** Unchecked: the overseer validates it. */
  payload: unknown;
  timeoutMs?: unknown;
  listener?: RunEventListener;
  /** Aborts the run as `cancelled`. */
  signal?: AbortSignal;
  /** When the request arrived, for queue time. */
  receivedAt?: number;
  /**
   * Names files that never change (a draft version, an agent version): validation and build are then
   * done once and reused. Leave out for files that are not immutable.
   */
  codeKey?: string;
  /** Failures go to the workspace's error reports unless this is false (anonymous runs). */
  report?: boolean;
  /** What the gadget's granted capabilities act on; absent (shared runs), every capability call fails. */
  services?: CapabilityServices;
  /** Catalog nesting: 0 for a run a person or backend started. */
  depth?: number;
  /**
   * Where the build reads the packages of the gadget's `gadget.lock.json`. Absent, a gadget with
   * dependencies does not build (it says packages cannot be loaded for the run).
   */
  packages?: PackageSource;
  /**
   * Where the secrets the manifest grants are read: workspace runs only. Absent (shares, embeds, public
   * record re-runs, anonymous runs), the run gets none: `env.secrets` is empty, header grants refuse.
   */
  secrets?: RunSecrets;
  /** Secrets of the runs above this one (it runs for a catalog call): never given to it, but redacted from all it leaves. */
  inheritedSecrets?: ReadonlyMap<string, string>;
}

/** Reads a workspace's secrets for one run: those of `names` that are set (a name not set is absent). */
export interface RunSecrets {
  read(names: readonly string[]): Promise<ReadonlyMap<string, string>>;
}

/** The granted secrets' values, read once the manifest is known; a failure (no key, wrong key) ends the run `invalid`. */
async function readGrantedSecrets(
  request: RunRequest,
  grants: GadgetGrants,
): Promise<{ ok: true; values: ReadonlyMap<string, string> } | { ok: false; message: string }> {
  const { inEnv, inHeaders } = grantedSecretNames(grants);
  const names = [...inEnv, ...inHeaders];
  if (names.length === 0 || !request.secrets) return { ok: true, values: new Map() };
  try {
    const read = await request.secrets.read(names);
    return {
      ok: true,
      values: new Map(names.flatMap((name) => (read.has(name) ? [[name, read.get(name) ?? ""]] : []))),
    };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

type Prepared =
  /** `cached`: taken from this workspace's caches, not built for this run. */
  | { ok: true; manifest: GadgetManifest; build: GadgetBuild; cached: boolean }
  | { ok: false; message: string; error?: RunErrorInfo };

/**
 * Immutable code (an agent version, a share) prepared once per Worker isolate: its checked manifest,
 * and the key of its build, which the build cache holds (a build it has let go is built again).
 */
const preparedCode = new LRUCache<string, { manifest: GadgetManifest; buildKey: string; bytes: number }>({
  max: 256,
  maxSize: PREPARED_MANIFEST_BYTES,
  sizeCalculation: (entry) => entry.bytes,
});

export interface RunReport {
  outcome: RunOutcome;
  record: RunRecord;
}

export interface OverseerOptions {
  logger: Logger;
  /** Failures of user code go here, fingerprinted and aggregated per workspace. */
  reportError?: (workspaceId: string, error: CapturedError, context: Record<string, string>) => void;
  now?: () => number;
}

/** Why a run stopped early, carried as the AbortSignal's reason. */
export interface StopReason {
  kind: "timeout" | "cancelled";
  message: string;
}

/** How long past its deadline and the pool's wait bound a run that never started is given up on. */
const START_GUARD_SLACK_MS = 2000;

const LOG_LEVELS = new Set<LogLevel>(["log", "info", "warn", "error", "debug"]);

/** What the isolate reports is input: it ran in the gadget's realm. */
/** A run's source as its log line and error reports name it: `draft:<id>`, `agent:<id>` (`@version` with `versioned`), `code`. */
function sourceText(source: RunSummary["source"], versioned: boolean): string {
  if (source.kind === "code") return "code";
  const id = source.kind === "draft" ? `draft:${source.draftId}` : `agent:${source.agentId}`;
  return versioned ? `${id}@${source.version}` : id;
}

function sanitizeRawError(raw: unknown): RawError {
  const value = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  const text = (field: unknown, max: number) => (typeof field === "string" ? field.slice(0, max) : "");
  return {
    name: text(value.name, 200) || "Error",
    message: text(value.message, 10_000),
    stack: text(value.stack, 20_000),
  };
}

/** Limits on error values inside console output that get their stacks mapped. */
const MAX_MAPPED_DEPTH = 4;

function mapLoggedErrors(values: EncodedValue[], build: GadgetBuild, depth = 0): EncodedValue[] {
  if (depth > MAX_MAPPED_DEPTH) return values;
  return values.map((value) => {
    if (value.t === "error") return { ...value, stack: mapError(value, build).stack };
    if (value.t === "array") return { ...value, items: mapLoggedErrors(value.items, build, depth + 1) };
    if (value.t === "object") {
      const mapped = mapLoggedErrors(
        value.entries.map(([, entry]) => entry),
        build,
        depth + 1,
      );
      return {
        ...value,
        entries: value.entries.map(([key], i) => [key, mapped[i] ?? { t: "undefined" }] as [string, EncodedValue]),
      };
    }
    return value;
  });
}

/** `env.secrets`' values: the granted names that are set (a name not set is absent). */
function envSecrets(names: readonly string[], values: ReadonlyMap<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of names) {
    const value = values.get(name);
    if (value !== undefined) out[name] = value;
  }
  return out;
}

function checkTimeout(value: unknown): Checked<number> {
  return value === undefined ? { ok: true, value: DEFAULT_RUN_TIMEOUT_MS } : checkTimeoutMs(value, "timeoutMs");
}

export class Overseer {
  readonly #logger: Logger;
  readonly #reportError: OverseerOptions["reportError"];
  readonly #now: () => number;

  constructor(options: OverseerOptions) {
    this.#logger = options.logger;
    this.#reportError = options.reportError;
    this.#now = options.now ?? Date.now;
  }

  async run(request: RunRequest): Promise<RunReport> {
    const startedAt = this.#now();
    const queueMs = request.receivedAt === undefined ? 0 : Math.max(0, startedAt - request.receivedAt);
    const events = new RunEventStream(request.runId, startedAt, request.listener, this.#now);
    const tracer = new TraceRecorder(request.receivedAt ?? startedAt, request.traceJoin);
    let buildDoneAt = startedAt;
    let runDoneAt = startedAt;
    const timings = (): RunTimings => ({
      queueMs,
      buildMs: buildDoneAt - startedAt,
      runMs: runDoneAt - buildDoneAt,
      totalMs: queueMs + (this.#now() - startedAt),
    });
    const fail = (kind: RunErrorKind, message: string, error?: RunErrorInfo): RunOutcome => ({
      status: "error",
      runId: request.runId,
      kind,
      message,
      ...(error ? { error } : {}),
      timings: timings(),
    });
    const refusedInput = (message: string): RunOutcome => ({
      status: "error",
      runId: request.runId,
      kind: "invalid",
      message,
      inputRefused: true,
      timings: timings(),
    });

    events.status("building");
    let payload: JsonValue = null;
    let outcome: RunOutcome;
    const prepared = await this.#prepare(request);
    const checkedPayload = checkPayload(request.payload);
    const timeout = checkTimeout(request.timeoutMs);
    const name = prepared.ok ? prepared.manifest.name : "gadget";
    if (checkedPayload.ok) payload = checkedPayload.value;
    // Before any isolate starts: a payload that breaks the inputSchema runs none of the gadget's code.
    const inputSchema = prepared.ok && checkedPayload.ok ? prepared.manifest.inputSchema : undefined;
    const input = inputSchema ? validateJson(inputSchema, payload) : undefined;
    buildDoneAt = runDoneAt = this.#now();
    // Every secret this run could see (its own once read, its callers'), taken out of all it leaves behind.
    let redact: Redactor = request.inheritedSecrets?.size ? secretRedactor(request.inheritedSecrets) : NO_REDACTION;

    // First: a run cancelled while it built may have failed to build for that reason (its package fetches stopped).
    if (request.signal?.aborted) outcome = fail("cancelled", "The run was cancelled before it started.");
    else if (!prepared.ok) {
      outcome = fail("invalid", prepared.message, prepared.error);
      if (prepared.error) events.emit({ type: "error", error: prepared.error, uncaught: true });
    } else if (!checkedPayload.ok) outcome = refusedInput(checkedPayload.error);
    else if (!timeout.ok) outcome = refusedInput(timeout.error);
    else if (input && !input.ok) outcome = refusedInput(schemaMismatch("inputSchema", input.errors));
    else {
      const grants = prepared.manifest.grants ?? {};
      const secrets = await readGrantedSecrets(request, grants);
      if (!secrets.ok) outcome = fail("invalid", secrets.message);
      else {
        const known = new Map([...(request.inheritedSecrets ?? []), ...secrets.values]);
        redact = secretRedactor(known);
        outcome = await this.#execute(request, prepared.build, grants, payload, timeout.value, events, tracer, fail, {
          values: secrets.values,
          known,
          redact,
        });
        runDoneAt = this.#now();
        outcome = { ...outcome, timings: timings() };
        const outputSchema = prepared.manifest.outputSchema;
        const output = outcome.status === "ok" && outputSchema ? validateJson(outputSchema, outcome.result) : undefined;
        if (output && !output.ok) outcome = fail("invalid", schemaMismatch("outputSchema", output.errors));
      }
    }

    outcome = redact.value(outcome);
    payload = redact.value(payload);
    const recordedPayload =
      checkedPayload.ok && request.recordedPayload !== undefined ? redact.value(request.recordedPayload) : payload;
    await events.end(outcome);
    const trace = redact.value(
      tracer.finish({
        name,
        runId: request.runId,
        queueMs: outcome.timings.queueMs,
        buildMs: outcome.timings.buildMs,
        runMs: outcome.timings.runMs,
        ok: outcome.status === "ok",
        attributes: { "gadget.outcome": outcome.status === "ok" ? "ok" : outcome.kind },
        ...(prepared.ok ? { buildAttributes: { "build.cached": prepared.cached } } : {}),
      }),
    );
    const record: RunRecord = {
      runId: request.runId,
      source: request.source,
      ...(request.via && request.via !== "rpc" ? { via: request.via } : {}),
      ...(request.trigger
        ? { trigger: typeof request.trigger === "function" ? request.trigger(outcome) : request.trigger }
        : {}),
      name,
      status: outcome.status,
      ...(outcome.status === "error" ? { kind: outcome.kind } : {}),
      startedAt,
      totalMs: outcome.timings.totalMs,
      payload: recordedPayload,
      // Unchecked files (a share run with edited files) are refused above; what is kept of them is an array.
      files: Array.isArray(request.files) ? [...request.files] : [],
      events: events.stored,
      droppedEvents: events.dropped + events.notStored,
      outcome,
      trace,
    };
    this.#logger.info("run", {
      runId: request.runId,
      workspaceId: request.workspaceId,
      source: sourceText(request.source, true),
      input: recordedPayload,
      outcome: outcome.status === "ok" ? "ok" : outcome.kind,
      result: outcome.status === "ok" ? outcome.result : outcome.message,
      durationMs: outcome.timings.totalMs,
      buildMs: outcome.timings.buildMs,
      runMs: outcome.timings.runMs,
    });
    if (
      request.report !== false &&
      outcome.status === "error" &&
      outcome.kind !== "cancelled" &&
      outcome.kind !== "busy" &&
      // A payload that breaks the inputSchema is the caller's mistake, not a problem of the gadget's.
      !(input && !input.ok)
    ) {
      const context = {
        runId: request.runId,
        source: sourceText(request.source, false),
        kind: outcome.kind,
        // The IDE's Problems view names the gadget and the version that failed.
        gadget: name,
        version: request.source.kind === "code" ? "" : String(request.source.version),
        // So Problems can say a failure came from an MCP client.
        ...(request.via && request.via !== "rpc" ? { via: request.via } : {}),
        // And which schedule fired it.
        ...(typeof request.trigger === "object" && request.trigger.kind === "schedule"
          ? { schedule: request.trigger.schedule }
          : {}),
      };
      this.#reportError?.(
        request.workspaceId,
        {
          name: outcome.error?.name ?? outcome.kind,
          message: outcome.error?.message ?? outcome.message,
          stack: outcome.error?.stack ?? "",
        },
        context,
      );
    }
    return { outcome, record };
  }

  /** Validates and builds the files, or takes both from the cache when the code is known to be immutable. */
  async #prepare(request: RunRequest): Promise<Prepared> {
    const key = request.codeKey === undefined ? undefined : `${request.workspaceId}:${request.codeKey}`;
    const known = key === undefined ? undefined : preparedCode.get(key);
    const build = known && cachedBuild(known.buildKey);
    if (known && build) return { ok: true, manifest: known.manifest, build, cached: true };
    const files = checkFiles(request.files);
    const manifest = files.ok ? checkManifest(files.value) : files;
    if (!manifest.ok) return { ok: false, message: manifest.error };
    const built = await buildGadget(files.ok ? files.value : [], manifest.value, request.workspaceId, request.packages);
    if (!built.ok)
      return { ok: false, message: `The gadget does not build: ${built.error.message}`, error: built.error };
    if (key !== undefined)
      preparedCode.set(key, {
        manifest: manifest.value,
        buildKey: built.key,
        bytes: Math.max(1, JSON.stringify(manifest.value).length * PARSED_PER_CHAR),
      });
    return { ok: true, manifest: manifest.value, build: built.build, cached: built.cached };
  }

  async #execute(
    request: RunRequest,
    build: GadgetBuild,
    grants: GadgetGrants,
    payload: JsonValue,
    timeoutMs: number,
    events: RunEventStream,
    tracer: TraceRecorder,
    fail: (kind: RunErrorKind, message: string, error?: RunErrorInfo) => RunOutcome,
    secrets: {
      /** The granted secrets that are set (`env.secrets` ones and header-template ones). */
      values: ReadonlyMap<string, string>;
      /** Those and the callers' secrets: what a catalog call's run must redact. */
      known: ReadonlyMap<string, string>;
      redact: Redactor;
    },
  ): Promise<RunOutcome> {
    const { redact } = secrets;
    // Every event of this run passes here: what it carries is redacted before it is counted, sent or stored.
    const emit = (body: RunEventBody) => events.emit(redact.active ? redact.value(body) : body);
    const controller = new AbortController();
    const stop = (reason: StopReason) => {
      if (!controller.signal.aborted) controller.abort(reason);
    };
    const timedOut = () =>
      stop({
        kind: "timeout",
        message: `The run took longer than ${timeoutMs} ms and was stopped. Look for a loop or a promise that never settles, or ask for a longer timeout (up to ${MAX_RUN_TIMEOUT_MS} ms).`,
      });
    // The deadline counts from when the run starts executing, not from when it was handed over: an
    // executor says when, or (the runner pool) enforces it itself; this guard covers one that does neither.
    let timer = setTimeout(timedOut, timeoutMs + RUN_QUEUE_WAIT_MS + START_GUARD_SLACK_MS);
    let started = false;
    const onStarted = () => {
      if (started) return;
      started = true;
      clearTimeout(timer);
      timer = setTimeout(timedOut, timeoutMs);
    };
    // Caps first: past them an event costs a count, never sanitizing or stack mapping.
    const logEvent = (level: LogLevel, values: EncodedValue[], layout?: unknown) => {
      if (events.closed) return;
      if (!events.accepting) return events.refuse();
      const checkedLevel = LOG_LEVELS.has(level) ? level : "log";
      emit({
        type: "log",
        level: checkedLevel,
        values: mapLoggedErrors(sanitizeEncodedValues(values, CONSOLE_CAPS), build),
        ...sanitizeLogLayout(layout),
      });
    };
    const errorEvent = (raw: RawError, uncaught: boolean) => {
      if (events.closed) return;
      if (!events.accepting) return events.refuse();
      emit({ type: "error", error: mapError(sanitizeRawError(raw), build), uncaught: uncaught === true });
    };
    const onCancel = () => stop({ kind: "cancelled", message: "The run was cancelled." });
    // A gadget granted nothing never calls out: no handler is made for it, and none has to be ended.
    const capabilitiesEnd = hasGrants(grants) ? new AbortController() : undefined;
    request.signal?.addEventListener("abort", onCancel, { once: true });
    events.status("running");
    let result: ExecuteResult;
    try {
      result = await request.executor.execute({
        runId: request.runId,
        workspaceId: request.workspaceId,
        grants,
        // Only the names `grants.secrets` lists reach the isolate; header-template secrets stay out here.
        ...(grants.secrets ? { secrets: envSecrets(grants.secrets, secrets.values) } : {}),
        ...((request.depth ?? 0) > 0 ? { nested: true } : {}),
        ...(capabilitiesEnd && {
          capabilities: createCapabilityHandler({
            grants,
            services: request.services,
            trace: (info) => {
              emit({
                type: "trace",
                capability: info.capability,
                summary: info.summary,
                ok: info.ok,
                ms: info.ms,
              });
              tracer.step(
                {
                  kind: info.capability,
                  name: info.summary,
                  start: info.start,
                  end: info.end,
                  ok: info.ok,
                  attributes: info.attributes,
                },
                info.nested,
              );
            },
            // A called agent's lines join this run's stream (and its caps), marked with where they came from.
            relay: (event) => {
              if (events.closed || (event.type !== "log" && event.type !== "error" && event.type !== "trace")) return;
              const { runId: _runId, seq: _seq, t: _t, ...body } = event;
              emit(body as RunEventBody);
            },
            signal: capabilitiesEnd.signal,
            now: this.#now,
            secrets: secrets.values,
            inheritSecrets: secrets.known,
          }),
        }),
        isolateKey: `${request.workspaceId}:${build.gadget.hash}`,
        gadget: build.gadget,
        payload,
        limits: { cpuMs: RUN_CPU_MS, timeoutMs },
        signal: controller.signal,
        sink: {
          started: onStarted,
          log: logEvent,
          error: errorEvent,
          // A batch is input from another process: its shape is checked here, each entry once.
          events: (batch) => {
            if (!Array.isArray(batch)) return;
            for (const event of batch.slice(0, MAX_EVENTS_PER_RUN)) {
              if (!events.accepting) return events.refuse();
              if (event?.kind === "log" && Array.isArray(event.values))
                logEvent(event.level, event.values, event.layout);
              else if (event?.kind === "error") errorEvent(event.error, event.uncaught);
            }
          },
          dropped: (total) => events.isolateDropped(total),
        },
      });
    } finally {
      clearTimeout(timer);
      capabilitiesEnd?.abort();
      request.signal?.removeEventListener("abort", onCancel);
    }
    if (result.droppedEvents) events.isolateDropped(result.droppedEvents);
    // The harness ran in the gadget's realm; its size check is not trusted on its own.
    if (result.status === "ok" && byteLength(JSON.stringify(result.result) ?? "null") > MAX_RESULT_BYTES) {
      return fail("invalid", `run() returned more than ${MAX_RESULT_BYTES} bytes of JSON. Return less data.`);
    }
    if (result.status === "ok")
      return {
        status: "ok",
        runId: request.runId,
        result: result.result,
        timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: 0 },
      };
    if ("error" in result) {
      const error = mapError(sanitizeRawError(result.error), build);
      const where = error.frames.find((frame) => frame.file !== "<runtime>");
      const at = where ? ` (at ${where.file}:${where.line}:${where.column})` : "";
      if (result.kind === "user") emit({ type: "error", error, uncaught: true });
      return fail(result.kind, `${error.name}: ${error.message}${at}`, error);
    }
    return fail(result.kind, result.message);
  }
}
