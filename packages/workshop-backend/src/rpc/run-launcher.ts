/**
 * Starts one run for a session: takes a run slot, hands the run to the overseer, stores the record
 * after the outcome is known (never before the isolate starts), and frees the slot.
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
} from "@gadgets/workshop-shared/api";
import {
  MAX_CATALOG_CALLS_PER_RUN,
  MAX_CATALOG_DEPTH,
  MAX_CONCURRENT_CATALOG_CALLS_PER_RUN,
  MAX_NAME_LENGTH,
} from "@gadgets/workshop-shared/limits";
import { checkId, checkPayload, checkTimeoutMs } from "@gadgets/workshop-shared/validate";
import type { CapabilityServices, NestedRun } from "../capabilities.ts";
import { randomId } from "../storage/ids.ts";
import type { ResolvedAgent, WorkspaceStore } from "../storage/workspace-store.ts";
import type { Connection } from "./connection.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import type { RunRecordWriter } from "./run-record-writer.ts";
import { codedError } from "@gadgets/workshop-shared/errors";

export interface LaunchRequest {
  source: RunSummary["source"];
  files: readonly GadgetFile[];
  payload: unknown;
  listener: RunEventListener | undefined;
  timeoutMs: unknown;
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
  /** Hears of the run's record once the run is over (before it is stored). */
  onRecord?(record: RunRecord): void;
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
}

/** `id`, `id@N`, `name` or `name@N` of a published agent in this workspace. */
/** `base@N` → base and version N; no `@` → the latest. Throws for a version that is not a positive whole number. */
export function splitAgentRef(ref: string): { base: string; version: number | undefined } {
  const at = ref.lastIndexOf("@");
  const base = at > 0 ? ref.slice(0, at) : ref;
  const versionText = at > 0 ? ref.slice(at + 1) : undefined;
  if (versionText !== undefined && !/^[1-9][0-9]{0,8}$/.test(versionText))
    throw new Error(`Invalid agent version in "${ref}": use a positive whole number, like ${base}@2.`);
  return { base, version: versionText === undefined ? undefined : Number(versionText) };
}

export async function resolveAgentRef(store: DurableObjectStub<WorkspaceStore>, ref: string): Promise<ResolvedAgent> {
  const { base, version } = splitAgentRef(ref);
  const byId = checkId(base, "agent id").ok ? await store.resolveAgent(base, version) : undefined;
  const found = byId ?? (base.length <= MAX_NAME_LENGTH ? await store.resolveAgentByName(base, version) : undefined);
  if (!found) throw codedError("AGENT_NOT_FOUND", `No published agent "${ref}" in this workspace.`);
  return found as ResolvedAgent;
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
    async catalog(ref, payload, relay) {
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
        return await callAgent(ref, payload, relay);
      } finally {
        inFlight--;
      }
    },
  };

  async function callAgent(ref: string, payload: JsonValue, relay: (event: RunEvent) => void): Promise<NestedRun> {
    const agent = await resolveAgentRef(context.store, ref);
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
    });
    return { agent: agent.name, version: agent.version, outcome, trace };
  }
}

/** What is wrong with a call's own arguments (payload, timeout), checked before a run or a record exists. */
function badArguments(request: LaunchRequest): string | undefined {
  const payload = checkPayload(request.payload);
  if (!payload.ok) return payload.error;
  const timeout = request.timeoutMs === undefined ? undefined : checkTimeoutMs(request.timeoutMs, "timeoutMs");
  return timeout && !timeout.ok ? timeout.error : undefined;
}

/**
 * Runs one gadget for a session and stores its record, whatever ends the run. The work is held open
 * past the client's departure, so a disconnect cancels the run but never loses its record.
 */
export function launchRun(context: RunContext, request: LaunchRequest): Promise<RunOutcome> {
  unfinishedRuns++;
  const run = runAndRecord(context, request);
  const settled = run
    .then(({ stored }) => stored)
    .catch(() => {})
    .finally(() => unfinishedRuns--);
  context.connection.waitUntil(settled);
  return run.then(({ outcome }) => outcome);
}

/** Runs of this Worker that have not yet ended or not yet had their record stored. */
let unfinishedRuns = 0;

/** How many runs are still going or unrecorded; a host shutting down waits for none. */
export function unfinishedRunCount(): number {
  return unfinishedRuns;
}

async function runAndRecord(
  context: RunContext,
  request: LaunchRequest,
): Promise<{ outcome: RunOutcome; stored: Promise<void> }> {
  const { connection, workspaceId, records } = context;
  const runId = randomId();
  // A bad call is answered as data like any failed run, but it writes nothing: no record, no error report.
  const bad = badArguments(request);
  if (bad !== undefined) {
    const totalMs = Date.now() - request.receivedAt;
    const outcome: RunOutcome = {
      status: "error",
      runId,
      kind: "invalid",
      message: bad,
      timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs },
    };
    return { outcome, stored: Promise.resolve() };
  }
  const controller = connection.acquireRunSlot(runId, workspaceId);
  if (!controller) {
    const now = Date.now();
    const outcome: RunOutcome = {
      status: "error",
      runId,
      kind: "busy",
      message: connection.busyMessage(workspaceId),
      timings: { queueMs: 0, buildMs: 0, runMs: 0, totalMs: now - request.receivedAt },
    };
    return { outcome, stored: Promise.resolve() };
  }
  const endedByParent = () =>
    controller.abort({ kind: "cancelled", message: "The run that called this agent has ended." });
  if (request.parentSignal?.aborted) endedByParent();
  else request.parentSignal?.addEventListener("abort", endedByParent, { once: true });
  try {
    const { outcome, record } = await connection.overseer.run({
      runId,
      executor: connection.executor,
      workspaceId,
      source: request.source,
      files: request.files,
      payload: request.payload,
      timeoutMs: request.timeoutMs,
      listener: request.listener,
      signal: controller.signal,
      receivedAt: request.receivedAt,
      codeKey: request.codeKey,
      services: servicesFor(context, request, controller.signal),
      depth: request.depth ?? 0,
    });
    request.onRecord?.(record);
    // Stored after the caller has its outcome; the session's reads flush the writer first.
    return { outcome, stored: records.add(record) };
  } finally {
    request.parentSignal?.removeEventListener("abort", endedByParent);
    // Whatever this run started (nested catalog runs, fetches) ends with it.
    if (!controller.signal.aborted) controller.abort({ kind: "cancelled", message: "The run has ended." });
    connection.releaseRunSlot(runId);
  }
}
