/**
 * `/h/<endpoint>/<any path>` on the gadget origin, any method: finds the agent answering there (the
 * Directory says which workspace, the workspace which agent), applies the endpoint's limits, reads the
 * request as the agent's input, runs its latest version on the one launch path (`runTriggered`, recorded
 * `via: "http"`) and answers with its outcome. An unknown endpoint and one turned off get the same 404.
 */

import type { Logger } from "@gadgets/backend-utils/logger";
import type { RunOutcome } from "@gadgets/workshop-shared/api";
import {
  ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE,
  ENDPOINT_REQUESTS_PER_MINUTE,
  MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";
import { traceIdOf } from "@gadgets/workshop-shared/otlp";
import { checkManifest } from "@gadgets/workshop-shared/validate";
import type { Env } from "../env.ts";
import type { Overseer } from "../overseer.ts";
import { clientEndpointMisses, TOO_MANY_ENDPOINT_MISSES } from "../rpc/client-limits.ts";
import { countedMiss, RateLimiter } from "../rpc/rate-limiter.ts";
import { endpointOwner, isKnownEndpoint } from "../rpc/registry.ts";
import { SharedRunSlots } from "../rpc/shared-run-slots.ts";
import { runTriggered } from "../rpc/trigger-runs.ts";
import type { ResolvedAgent } from "../storage/agent-table.ts";
import { keepVersion, knownVersion, type PublishedVersion } from "../rpc/agent-versions.ts";
import type { WorkspaceStore } from "../storage/workspace-store.ts";
import { newSpanId } from "../trace-recorder.ts";
import { type EndpointBodyMode, type ReadEndpointRequest, readEndpointRequest } from "./endpoint-request.ts";
import { KeyedSlots } from "../keyed-slots.ts";
import {
  type EndpointAnswer,
  type EndpointResponseMode,
  endpointResponse,
  errorAnswer,
  outcomeAnswer,
} from "./endpoint-response.ts";
import { parseTraceParent, traceResponse } from "./trace-context.ts";
import { codedStub } from "../storage/coded-errors.ts";

/** A name (`[a-z][a-z0-9-]{2,63}`) or an id (22 base64url characters): anything else is no endpoint. */
const ENDPOINT_SEGMENT = /^[A-Za-z0-9_-]{3,64}$/;

/** Requests per endpoint, and per client of each endpoint (per Worker isolate, like every keyed limit). */
const endpointRequests = new RateLimiter(ENDPOINT_REQUESTS_PER_MINUTE);
const endpointClients = new RateLimiter(ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE);

/** Endpoint runs of each workspace in flight: strangers' requests never hold all of its run slots. */
const endpointRuns = new KeyedSlots(MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE);
/**
 * Every run of a workspace's endpoint requests, their catalog calls included, counted together: the
 * count above is of requests, and each request's agent may call others, each a run of its own.
 */
const endpointRunSlots = new Map<string, { slots: SharedRunSlots; requests: number }>();

function joinEndpointRunSlots(workspaceId: string): { slots: SharedRunSlots; leave(): void } {
  const entry = endpointRunSlots.get(workspaceId) ?? {
    slots: new SharedRunSlots(MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE, ENDPOINT_RUNS_BUSY_NESTED),
    requests: 0,
  };
  entry.requests++;
  endpointRunSlots.set(workspaceId, entry);
  return {
    slots: entry.slots,
    // Kept while an ended run's isolate call still holds a slot: a new count would not see it.
    leave: () => {
      if (--entry.requests === 0 && entry.slots.inFlight() === 0) endpointRunSlots.delete(workspaceId);
    },
  };
}

const ENDPOINT_RUNS_BUSY_NESTED = `This workspace's endpoints already have ${MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE} runs in flight (catalog calls included), their limit. Try again in a moment.`;
const ENDPOINT_RUNS_BUSY = `This workspace's endpoints already have ${MAX_CONCURRENT_ENDPOINT_RUNS_PER_WORKSPACE} runs in flight, their limit. Try again in a moment.`;

export interface EndpointDeps {
  env: Env;
  overseer: Overseer;
  /** Who asked (client-key.ts). */
  client: string;
  waitUntil(work: Promise<unknown>): void;
  logger: Logger;
}

interface FoundEndpoint {
  workspaceId: string;
  store: DurableObjectStub<WorkspaceStore>;
  agent: ResolvedAgent;
  response: EndpointResponseMode;
}

/** Each version's body mode, read once from its manifest (versions are cached objects, kept as long as they are). */
const bodyModes = new WeakMap<ResolvedAgent, EndpointBodyMode>();

/** How the agent's manifest asks for the body (`triggers.http.body`). */
function bodyModeOf(agent: ResolvedAgent): EndpointBodyMode {
  let mode = bodyModes.get(agent);
  if (!mode) {
    const manifest = checkManifest(agent.files);
    mode = manifest.ok && manifest.value.triggers?.http?.body === "text" ? "text" : "json";
    bodyModes.set(agent, mode);
  }
  return mode;
}

/** The same answer for an endpoint that never existed and one turned off: nothing about the workspace. */
const NOT_FOUND_MESSAGE = "No endpoint answers at this address.";
export const notFoundResponse = (): Response => endpointResponse(errorAnswer(404, "not_found", NOT_FOUND_MESSAGE));

async function findEndpoint(env: Env, endpoint: string): Promise<FoundEndpoint | undefined> {
  const workspaceId = await endpointOwner(env, endpoint);
  if (!workspaceId) return undefined;
  const store = codedStub(env.WORKSPACES.get(env.WORKSPACES.idFromName(workspaceId)));
  const active = await store.resolveEndpoint(endpoint);
  if (!active) return undefined;
  let agent = knownVersion(workspaceId, active.agentId, active.version);
  if (!agent) {
    // The stub's answer is typed as an RPC value; what comes back is the plain record.
    agent = (await store.resolveAgent(active.agentId, active.version)) as PublishedVersion | undefined;
    if (!agent) return undefined;
    keepVersion(workspaceId, agent);
  }
  return { workspaceId, store, agent, response: active.response };
}

/**
 * Counts the request against its limits, or says which refuses it. Counted before the endpoint is looked
 * up — so a burst cannot pass a check that none of its requests has counted yet, and a client past its
 * limit costs the workspace's Durable Object nothing — and given back when the endpoint is not found.
 */
function takeRequest(endpoint: string, client: string): string | undefined {
  if (!endpointClients.take(`${client} ${endpoint}`))
    return `This client sent ${ENDPOINT_REQUESTS_PER_CLIENT_PER_MINUTE} requests to this endpoint in the last minute, the limit per client. Wait a minute, then send fewer.`;
  if (endpointRequests.take(endpoint)) return undefined;
  endpointClients.giveBack(`${client} ${endpoint}`);
  return `This endpoint took ${ENDPOINT_REQUESTS_PER_MINUTE} requests in the last minute from all its clients, its limit. Wait a minute.`;
}

function giveBackRequest(endpoint: string, client: string): void {
  endpointClients.giveBack(`${client} ${endpoint}`);
  endpointRequests.giveBack(endpoint);
}

export async function serveEndpoint(request: Request, deps: EndpointDeps): Promise<Response> {
  const match = /^\/h\/([^/]*)(\/.*)?$/.exec(new URL(request.url).pathname);
  const endpoint = match?.[1] ?? "";
  const path = match?.[2] ?? "/";
  // Guessing endpoints is a miss like guessing share ids, counted per client (before the lookup, given
  // back when found). Past its budget a client is still served by endpoints this isolate knows: a webhook
  // sender's address may be shared by many senders, and one workspace's stale hooks must not refuse another's live ones.
  const missCounted = !isKnownEndpoint(endpoint);
  if (missCounted && !clientEndpointMisses.take(deps.client))
    return endpointResponse(errorAnswer(429, "rate_limited", TOO_MANY_ENDPOINT_MISSES));
  const refused = takeRequest(endpoint, deps.client);
  if (refused) {
    if (missCounted) clientEndpointMisses.giveBack(deps.client);
    return endpointResponse(errorAnswer(429, "rate_limited", refused));
  }
  try {
    let found: FoundEndpoint | undefined;
    try {
      found = await countedMiss(
        ENDPOINT_SEGMENT.test(endpoint) ? findEndpoint(deps.env, endpoint) : Promise.resolve(undefined),
        (endpoint) => endpoint === undefined,
        () => missCounted && clientEndpointMisses.giveBack(deps.client),
      );
    } finally {
      // A request not found (or whose lookup failed) is no request of any endpoint.
      if (!found) giveBackRequest(endpoint, deps.client);
    }
    if (!found) return notFoundResponse();
    const read = await readEndpointRequest(request, path, bodyModeOf(found.agent));
    if (!read.ok) return endpointResponse(errorAnswer(read.status, read.kind, read.message));

    const release = endpointRuns.enter(found.workspaceId);
    if (!release) return endpointResponse(errorAnswer(503, "busy", ENDPOINT_RUNS_BUSY));
    const shared = joinEndpointRunSlots(found.workspaceId);
    try {
      return await runEndpoint(request, deps, found, read, shared.slots);
    } finally {
      shared.leave();
      release();
    }
  } catch (error) {
    deps.logger.error("endpoint request failed", { error: error instanceof Error ? error.message : String(error) });
    return endpointResponse(
      errorAnswer(500, "internal", "The Workshop could not serve this request. Try again in a moment."),
    );
  }
}

/** Runs the endpoint's agent for a request it accepted and answers with the run's outcome. */
async function runEndpoint(
  request: Request,
  deps: EndpointDeps,
  found: FoundEndpoint,
  read: Extract<ReadEndpointRequest, { ok: true }>,
  slots: SharedRunSlots,
): Promise<Response> {
  const parent = parseTraceParent(request.headers.get("traceparent"));
  const rootSpanId = newSpanId();
  // The record's status is the one answered: both come from this one answer.
  let answer: EndpointAnswer | undefined;
  const answerOf = (outcome: RunOutcome) => {
    answer ??= outcomeAnswer(outcome, found.response);
    return answer;
  };
  let recorded = false;
  const outcome = await runTriggered({
    env: deps.env,
    overseer: deps.overseer,
    workspaceId: found.workspaceId,
    store: found.store,
    agent: found.agent,
    payload: read.input,
    recordedPayload: read.recorded,
    via: "http",
    trigger: (ended) => {
      recorded = true;
      // The recorded request's path is already its shape.
      return { kind: "http", method: read.input.method, path: read.recorded.path, status: answerOf(ended).status };
    },
    traceJoin: { rootSpanId, ...(parent ? { traceId: parent.traceId, parentSpanId: parent.parentSpanId } : {}) },
    client: deps.client,
    waitUntil: deps.waitUntil,
    signal: request.signal,
    slots,
  });
  // A run refused before it started (busy, a payload too large) has no record, so no id to name.
  return endpointResponse(
    answerOf(outcome),
    recorded
      ? {
          runId: outcome.runId,
          traceResponse: traceResponse(parent?.traceId ?? traceIdOf(outcome.runId), rootSpanId, parent),
        }
      : {},
  );
}
