/**
 * The one launch path of every run (drafts, agents, catalog calls, tests, triggers, Code Mode, shares
 * and public records): checks the call's arguments, takes a run slot, hands the run to the overseer,
 * keeps the work open past the client's departure, stores the record after the outcome is known
 * (never before the isolate starts), and frees the slot. What tells one kind of run from another is a
 * `RunPlan`, each difference an explicit option.
 */

import type {
  GadgetFile,
  JsonValue,
  RunEvent,
  RunEventListener,
  RunOutcome,
  RunRecord,
  RunSummary,
  RunTrace,
  RunVia,
} from "@gadgets/workshop-shared/api";
import {
  MAX_CATALOG_CALLS_PER_RUN,
  MAX_CATALOG_DEPTH,
  MAX_CONCURRENT_CATALOG_CALLS_PER_RUN,
  MAX_NAME_LENGTH,
} from "@gadgets/workshop-shared/limits";
import {
  AgentIdSchema,
  AgentRefSchema,
  type Checked,
  check,
  PayloadSchema,
  RunOptionsSchema,
} from "@gadgets/workshop-shared/schemas";
import type { CapabilityServices, NestedRun } from "../capabilities.ts";
import { randomId } from "../storage/ids.ts";
import type { AgentRef, ResolvedAgent, WorkspaceStore } from "../storage/workspace-store.ts";
import type { Connection } from "./connection.ts";
import type { RunRequest, RunSecrets } from "../overseer.ts";
import type { PackageSource } from "../packages/package-source.ts";
import { packageSourceFor } from "../packages/workspace-packages.ts";
import type { Access } from "./credentials.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import type { RunRecordWriter } from "./run-record-writer.ts";
import { runSecrets } from "./secrets.ts";
import { detached } from "@gadgets/workshop-pool/detached";
import { codedError, errorCode } from "@gadgets/workshop-shared/errors";

export interface LaunchRequest {
  source: RunSummary["source"];
  files: readonly GadgetFile[];
  /** As the caller sent it: checked here, a bad one answered as an `invalid` outcome. */
  payload: unknown;
  /** The caller's RunOptions as sent, checked like the payload. */
  options?: unknown;
  listener: RunEventListener | undefined;
  /** The wall-clock limit when the options name none. */
  timeoutMs: number;
  receivedAt: number;
  /** Immutable identity of the files (`draft:<id>@<version>`), so the build is cached. */
  codeKey: string;
  /** The gadget's draft: the scope of its kv. */
  scope: string;
  /** Drafts of the catalog calls above this run, to refuse cycles. */
  chain?: string[];
  depth?: number;
  /** A nested run ends when the run that called it ends (cancel, timeout or done). */
  parentSignal?: AbortSignal;
  /** Catalog calls made so far by the whole call tree of the run a person or backend started. */
  catalogCalls?: { made: number };
  /** Which agents this run's own catalog calls may reach (an API key limited to some agents); nested runs are not limited by it. */
  allowsAgent?(agent: { agentId: string; name: string }): boolean;
  /** What fired the run (HTTP, schedule), for its record; see `RunRequest.trigger`. */
  trigger?: RunRequest["trigger"];
  /** The payload as its record keeps it; see `RunRequest.recordedPayload`. */
  recordedPayload?: JsonValue;
  /** A caller's trace the run joins; see `RunRequest.traceJoin`. */
  traceJoin?: RunRequest["traceJoin"];
  /** The calling run's secrets (a catalog call): redacted from this run's output, never given to it. */
  inheritedSecrets?: ReadonlyMap<string, string>;
  /** Hears of the run's record once the run is over (before it is stored). */
  onRecord?(record: RunRecord): void;
  /**
   * The run is a guess (an agent's version as last seen) until this settles: its events are held, its
   * capability calls wait, and if it settles false the run is stopped and forgotten — no event, no
   * effect, no record — and `launchRun` answers SUPERSEDED.
   */
  confirmed?: Promise<boolean>;
}

/** A guessed run turned out to be of the wrong version: it left no trace; run the right one. */
export const SUPERSEDED = Symbol("superseded");

/** What `startRun` reads of a launch: the call's own arguments and how the run relates to others. */
export type RunStart = Omit<
  LaunchRequest,
  "codeKey" | "scope" | "chain" | "catalogCalls" | "allowsAgent" | "onRecord"
> & {
  /** Immutable identity of the files; left out for files that may change (a share's edited files). */
  codeKey?: string;
};

/**
 * How one kind of run differs from another on the launch path. A workspace's runs get theirs from
 * `workspacePlan`; anonymous runs of shares and public records from `public-share.ts`.
 */
export interface RunPlan {
  /** Whose isolates and caches it uses: a workspace, or an anonymous visitor's pseudo-workspace. */
  workspaceId: string;
  /** Counted against its workspace's concurrent runs, not only its connection's (false: no workspace). */
  countsForWorkspace: boolean;
  /** The API key it was started with (nested runs too): counted against the keys' share and the key's own. */
  keyId?: string;
  /**
   * Asked once the arguments are checked, before a slot is taken: a reason given ends the run as
   * `busy` with that message (the anonymous budgets); nothing given, the run goes (and is counted).
   */
  admit?(): string | undefined;
  /** What its granted capabilities act on, for the run's own signal; left out, every capability call fails. */
  services?(runSignal: AbortSignal): CapabilityServices;
  /** Where the secrets its manifest grants are read; left out, it gets none. */
  secrets?: RunSecrets;
  /** Where its build reads the packages its lock names; what it fetches stops with the run's own signal. */
  packages(runSignal: AbortSignal): PackageSource;
  /** false: its failures are not filed with any workspace's error reports. */
  report?: false;
  via?: RunVia;
  /** What becomes of its record once the caller has its outcome (stored, for a workspace); left out, none is kept. */
  keep?(record: RunRecord): Promise<void>;
}

/** Where a session's runs keep their data: the workspace, its store and its records. */
export interface RunContext {
  connection: Connection;
  workspaceId: string;
  store: DurableObjectStub<WorkspaceStore>;
  records: RunRecordWriter;
  /** Default wall-clock limit for nested catalog runs. */
  timeoutMs: number;
  /** The workspace's cap on fetch hosts (null: none). */
  fetchHosts: string[] | null;
  /** Who starts this context's runs (an MCP request, or a client over RPC when left out); nested runs inherit it. */
  via?: RunVia;
  /** The credential behind the runs (credentials.ts): an API key limits which agents a stub may run. Left out: the token. */
  access?: Access;
  /** Asked before each call on an agent stub: refuses (FORBIDDEN) once the session's API key is revoked. */
  authorize?: () => Promise<void>;
}

/**
 * The published agent `ref` names in this workspace: `id`, `id@N`, `name` or `name@N` (no `@`: the
 * latest). A gadget's catalog call passes its ref as written: a malformed one is refused with the
 * schema's message, an unknown one with AGENT_NOT_FOUND.
 */
export function resolveAgentRef(store: DurableObjectStub<WorkspaceStore>, ref: string): Promise<ResolvedAgent> {
  // The stub's answers are typed as RPC values; what comes back is the plain record.
  return lookUpRef(
    ref,
    async (agentId, version) => (await store.resolveAgent(agentId, version)) as ResolvedAgent | undefined,
    async (name, version) => (await store.resolveAgentByName(name, version)) as ResolvedAgent | undefined,
  );
}

/** Which version of which agent `ref` (a latest, no `@`) means now: a guess confirmed without its files. */
export function latestAgentRef(store: DurableObjectStub<WorkspaceStore>, ref: string): Promise<AgentRef> {
  return lookUpRef(
    ref,
    (agentId) => store.latestAgentRef(agentId),
    (name) => store.latestAgentRefByName(name),
  );
}

/** The one reading of a ref: by id when it is one, else by name; refused when malformed or unknown. */
async function lookUpRef<T>(
  ref: string,
  byId: (agentId: string, version: number | undefined) => Promise<T | undefined>,
  byName: (name: string, version: number | undefined) => Promise<T | undefined>,
): Promise<T> {
  const parsed = check(AgentRefSchema, ref);
  if (!parsed.ok) throw new Error(parsed.error);
  const { base, version } = parsed.value;
  const found =
    (check(AgentIdSchema, base).ok ? await byId(base, version) : undefined) ??
    (base.length <= MAX_NAME_LENGTH ? await byName(base, version) : undefined);
  if (!found) throw codedError("AGENT_NOT_FOUND", `No published agent "${ref}" in this workspace.`);
  return found;
}

/** A gadget's fetch may take this long, whatever its run's deadline. */
const FETCH_TIMEOUT_MS = 15_000;

/** What a run's granted capabilities act on: this workspace's kv for the gadget, fetch, and the catalog. */
function servicesFor(context: RunContext, request: LaunchRequest, runSignal: AbortSignal): CapabilityServices {
  const depth = request.depth ?? 0;
  const chain = request.chain ?? [request.scope];
  // Shared by the whole tree: nesting cannot multiply the budget.
  const calls = request.catalogCalls ?? { made: 0 };
  let inFlight = 0;
  const outbound = context.connection.env.GADGET_FETCH;
  return {
    kv: async (op, key, value) => {
      if (op === "put") await checkDiskForWrite(context.connection.env);
      return context.store.kv(request.scope, op, key, value);
    },
    fetch: (request, callSignal) => {
      const signal = AbortSignal.any([runSignal, callSignal, AbortSignal.timeout(FETCH_TIMEOUT_MS)]);
      // Locally, gadget fetches leave through their own network service (public addresses only).
      return outbound ? outbound.fetch(new Request(request, { signal })) : fetch(request, { signal });
    },
    // Read at the first fetch of a run, so a tightened policy applies to sessions already open.
    fetchPolicy: async () => (await context.store.getSettings()).fetchHosts,
    async catalog(ref, payload, relay, secrets) {
      if (depth >= MAX_CATALOG_DEPTH)
        throw new Error(
          `Catalog calls nest at most ${MAX_CATALOG_DEPTH} levels deep; "${ref}" would be level ${depth + 1}.`,
        );
      if (calls.made >= MAX_CATALOG_CALLS_PER_RUN)
        throw new Error(
          `A run may make ${MAX_CATALOG_CALLS_PER_RUN} catalog calls in all (its nested calls included); "${ref}" would be call ${calls.made + 1}.`,
        );
      if (inFlight >= MAX_CONCURRENT_CATALOG_CALLS_PER_RUN)
        throw new Error(
          `A run may have ${MAX_CONCURRENT_CATALOG_CALLS_PER_RUN} catalog calls in flight at once. Await one before starting another.`,
        );
      calls.made++;
      inFlight++;
      try {
        return await callAgent(ref, payload, relay, secrets);
      } finally {
        inFlight--;
      }
    },
  };

  async function callAgent(
    ref: string,
    payload: JsonValue,
    relay: (event: RunEvent) => void,
    secrets: ReadonlyMap<string, string>,
  ): Promise<NestedRun> {
    // For a key limited to agents, one it may not run is answered as one that does not exist: the key
    // learns nothing of the workspace's other agents, not even their names.
    const hidden = () =>
      codedError("AGENT_NOT_FOUND", `No published agent "${ref}" among the agents this run's API key may call.`);
    const agent = await resolveAgentRef(context.store, ref).catch((error: unknown) => {
      throw request.allowsAgent && errorCode(error) === "AGENT_NOT_FOUND" ? hidden() : error;
    });
    if (request.allowsAgent && !request.allowsAgent(agent)) throw hidden();
    if (chain.includes(agent.draftId))
      throw new Error(`Catalog call cycle: "${agent.name}" is already running further up this chain.`);
    let trace: RunTrace | undefined;
    const outcome = await launchRun(context, {
      source: { kind: "agent", agentId: agent.agentId, version: agent.version },
      files: agent.files,
      payload,
      // Its console reaches the caller's, marked with the agent (the deepest agent, when they nest).
      listener: (event) => {
        if (event.type === "log" || event.type === "error" || event.type === "trace")
          relay({ ...event, from: event.from ?? { runId: event.runId, agent: agent.name } });
      },
      onRecord: (record) => {
        trace = record.trace;
      },
      timeoutMs: context.timeoutMs,
      receivedAt: Date.now(),
      codeKey: `agent:${agent.agentId}@${agent.version}`,
      scope: agent.draftId,
      chain: [...chain, agent.draftId],
      depth: depth + 1,
      parentSignal: runSignal,
      catalogCalls: calls,
      ...(secrets.size > 0 ? { inheritedSecrets: secrets } : {}),
    });
    return { agent: agent.name, version: agent.version, outcome, trace };
  }
}

/** A call's own arguments (payload, options) checked before a run or a record exists, or what is wrong with them. */
function checkArguments(request: RunStart): Checked<{ payload: JsonValue; timeoutMs: number }> {
  const payload = check(PayloadSchema, request.payload);
  if (!payload.ok) return payload;
  const options = check(RunOptionsSchema, request.options);
  if (!options.ok) return options;
  return { ok: true, value: { payload: payload.value, timeoutMs: options.value?.timeoutMs ?? request.timeoutMs } };
}

/**
 * Runs one gadget for a session and stores its record, whatever ends the run. The work is held open
 * past the client's departure, so a disconnect cancels the run but never loses its record.
 */
export function launchRun(context: RunContext, request: LaunchRequest & { confirmed?: undefined }): Promise<RunOutcome>;
export function launchRun(context: RunContext, request: LaunchRequest): Promise<RunOutcome | typeof SUPERSEDED>;
export function launchRun(context: RunContext, request: LaunchRequest): Promise<RunOutcome | typeof SUPERSEDED> {
  return startRun(context.connection, workspacePlan(context, request), request);
}

/**
 * A workspace's own run (its drafts, agents, tests, triggers, catalog calls): counted for the
 * workspace, its capabilities on the workspace's services, the secrets its manifest grants, packages
 * from the workspace's store (and registry), failures reported, the record stored.
 */
function workspacePlan(context: RunContext, request: LaunchRequest): RunPlan {
  return {
    workspaceId: context.workspaceId,
    countsForWorkspace: true,
    ...(context.access?.kind === "key" ? { keyId: context.access.keyId } : {}),
    services: (runSignal) => servicesFor(context, request, runSignal),
    secrets: runSecrets(context.connection.env, context.workspaceId, context.store),
    // The lock in the run's files says which packages; the workspace's store (and registry, for one not stored yet) has them.
    packages: (runSignal) => packageSourceFor(context.connection.env, context.workspaceId, context.store, runSignal),
    ...(context.via ? { via: context.via } : {}),
    keep: (record) => {
      request.onRecord?.(record);
      // Stored after the caller has its outcome; the session's reads flush the writer first.
      return context.records.add(record);
    },
  };
}

/**
 * Runs one gadget as `plan` says, whatever kind of run it is. The work (the run, then what becomes of
 * its record) is held open past the client's departure, so a disconnect cancels the run but never
 * loses its record.
 */
export function startRun(
  connection: Connection,
  plan: RunPlan,
  request: RunStart & { confirmed?: undefined },
): Promise<RunOutcome>;
export function startRun(
  connection: Connection,
  plan: RunPlan,
  request: RunStart,
): Promise<RunOutcome | typeof SUPERSEDED>;
export function startRun(
  connection: Connection,
  plan: RunPlan,
  request: RunStart,
): Promise<RunOutcome | typeof SUPERSEDED> {
  unfinishedRuns++;
  const run = runAndKeep(connection, plan, request);
  // A failed run has answered its caller already; a record that could not be stored is logged.
  const settled = detached(
    "a run and the storing of its record",
    run.then(({ stored }) => stored),
  ).finally(() => unfinishedRuns--);
  connection.waitUntil(settled);
  return run.then(({ outcome }) => outcome);
}

/**
 * What a guessed run sees until its guess is confirmed: its events are held (then delivered in order),
 * its capability calls wait; refuted, the run is stopped and what it held is dropped.
 */
function holdUntilConfirmed(
  confirmed: Promise<boolean>,
  listener: RunEventListener | undefined,
  controller: AbortController,
): { listener: RunEventListener | undefined; gate(services: CapabilityServices): CapabilityServices } {
  let held: RunEvent[] = [];
  let state: "pending" | "confirmed" | "refuted" = "pending";
  void confirmed.then((ok) => {
    const events = held;
    held = [];
    state = ok ? "confirmed" : "refuted";
    if (!ok) {
      controller.abort({ kind: "cancelled", message: "A newer version of this agent was published." });
      return;
    }
    for (const event of events) void listener?.(event);
  });
  const refuted = () => new Error("A newer version of this agent was published; this run was replaced.");
  const after = async <T>(work: () => Promise<T>): Promise<T> => {
    if (!(await confirmed)) throw refuted();
    return work();
  };
  return {
    listener:
      listener &&
      ((event) => {
        if (state === "pending") held.push(event);
        // A refuted run's events, its end included, never reach anyone.
        else if (state === "confirmed") return listener(event);
      }),
    gate: (services) => ({
      kv: (op, key, value) => after(() => services.kv(op, key, value)),
      catalog: (ref, payload, relay, secrets) => after(() => services.catalog(ref, payload, relay, secrets)),
      fetch: (request, signal) => after(() => services.fetch(request, signal)),
      fetchPolicy: () => after(() => services.fetchPolicy()),
    }),
  };
}

/** Runs of this Worker that have not yet ended or not yet had their record stored. */
let unfinishedRuns = 0;

/** How many runs are still going or unrecorded; a host shutting down waits for none. */
export function unfinishedRunCount(): number {
  return unfinishedRuns;
}

async function runAndKeep(
  connection: Connection,
  plan: RunPlan,
  request: RunStart,
): Promise<{ outcome: RunOutcome | typeof SUPERSEDED; stored: Promise<void> }> {
  const { workspaceId } = plan;
  const runId = randomId();
  // A bad call is answered as data like any failed run, but it writes nothing: no record, no error report.
  const args = checkArguments(request);
  if (!args.ok) {
    const totalMs = Date.now() - request.receivedAt;
    const outcome: RunOutcome = {
      status: "error",
      runId,
      kind: "invalid",
      message: args.error,
      inputRefused: true,
      timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs },
    };
    return { outcome, stored: Promise.resolve() };
  }
  const busy = (message: string): { outcome: RunOutcome; stored: Promise<void> } => ({
    outcome: {
      status: "error",
      runId,
      kind: "busy",
      message,
      timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: Date.now() - request.receivedAt },
    },
    stored: Promise.resolve(),
  });
  const refused = plan.admit?.();
  if (refused !== undefined) return busy(refused);
  const slotWorkspace = plan.countsForWorkspace ? workspaceId : undefined;
  // An API key's runs take at most their share: a key cannot fill the owner's slots.
  const controller = connection.acquireRunSlot(runId, slotWorkspace, plan.keyId);
  if (!controller) return busy(connection.busyMessage(slotWorkspace, plan.keyId));
  const endedByParent = () =>
    controller.abort({ kind: "cancelled", message: "The run that called this agent has ended." });
  const guess = request.confirmed ? holdUntilConfirmed(request.confirmed, request.listener, controller) : undefined;
  const services = plan.services?.(controller.signal);
  if (request.parentSignal?.aborted) endedByParent();
  else request.parentSignal?.addEventListener("abort", endedByParent, { once: true });
  try {
    const { outcome, record } = await connection.overseer.run({
      runId,
      executor: connection.executor,
      workspaceId,
      source: request.source,
      ...(plan.via ? { via: plan.via } : {}),
      ...(request.trigger ? { trigger: request.trigger } : {}),
      ...(request.recordedPayload !== undefined ? { recordedPayload: request.recordedPayload } : {}),
      ...(request.traceJoin ? { traceJoin: request.traceJoin } : {}),
      files: request.files,
      payload: args.value.payload,
      timeoutMs: args.value.timeoutMs,
      listener: guess ? guess.listener : request.listener,
      signal: controller.signal,
      receivedAt: request.receivedAt,
      ...(request.codeKey === undefined ? {} : { codeKey: request.codeKey }),
      ...(services ? { services: guess ? guess.gate(services) : services } : {}),
      depth: request.depth ?? 0,
      // Only a workspace's own runs may read what their manifest grants; shares, embeds and public
      // re-runs get none (their plan names no secrets).
      ...(plan.secrets ? { secrets: plan.secrets } : {}),
      packages: plan.packages(controller.signal),
      ...(plan.report === false ? { report: false } : {}),
      ...(request.inheritedSecrets ? { inheritedSecrets: request.inheritedSecrets } : {}),
    });
    if (request.confirmed && !(await request.confirmed)) return { outcome: SUPERSEDED, stored: Promise.resolve() };
    return { outcome, stored: plan.keep ? plan.keep(record) : Promise.resolve() };
  } finally {
    request.parentSignal?.removeEventListener("abort", endedByParent);
    // Whatever this run started (nested catalog runs, fetches) ends with it.
    if (!controller.signal.aborted) controller.abort({ kind: "cancelled", message: "The run has ended." });
    connection.releaseRunSlot(runId);
  }
}
