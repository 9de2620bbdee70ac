/**
 * The gatekeeper: performs a gadget's capability calls outside its isolate, only when granted, within
 * quotas, and traces each one into the run's event stream. Grants travel as this handler (an RPC
 * capability), never as a token or URL the gadget could keep or leak.
 */

import type { GadgetGrants, JsonValue, RunEvent, RunOutcome, RunTrace, TraceSpan } from "@gadgets/workshop-shared/api";
import {
  KV_MAX_KEY_BYTES,
  KV_MAX_VALUE_BYTES,
  MAX_FETCH_REDIRECTS,
  MAX_FETCH_REQUEST_BYTES,
  MAX_FETCH_RESPONSE_BYTES,
  MAX_FETCHES_PER_RUN,
} from "@gadgets/workshop-shared/limits";
import { fillTemplate } from "@gadgets/workshop-shared/schemas";
import { byteLength } from "@gadgets/workshop-shared/validate";
import type { CapabilityCall, CapabilityHandler, CapabilityReply } from "./executors/executor.ts";
import { readCappedBody } from "./capped-body.ts";
import { pathShape, urlShape } from "./url-shape.ts";

export interface TraceInfo {
  capability: "fetch" | "kv" | "catalog";
  summary: string;
  ok: boolean;
  ms: number;
  /** Epoch ms when the call started and ended, for the run's trace. */
  start: number;
  end: number;
  /** Facts for the trace span: never query strings, headers, kv values or path segments that could be secrets. */
  attributes: TraceSpan["attributes"];
  /** The trace of the agent a catalog call ran. */
  nested?: RunTrace;
}

/** What a catalog call ran: the agent's outcome and trace, whether it succeeded or not. */
export interface NestedRun {
  agent: string;
  version: number;
  outcome: RunOutcome;
  trace?: RunTrace;
}

/** What the handler needs from the workspace; scoped to one gadget by the caller. */
export interface CapabilityServices {
  kv(op: "get" | "put" | "delete" | "list", key: string, value: string | undefined): Promise<unknown>;
  /**
   * Runs another published agent of the same workspace; rejects with a message for the gadget when it
   * cannot start. Its console lines and calls reach `relay` as they happen. `secrets` are the calling
   * run's (never given to the called one): they are redacted from all the called run leaves too.
   */
  catalog(
    ref: string,
    payload: JsonValue,
    relay: (event: RunEvent) => void,
    secrets: ReadonlyMap<string, string>,
  ): Promise<NestedRun>;
  fetch(request: Request, signal: AbortSignal): Promise<Response>;
  /** The workspace's cap on fetch hosts, applied on top of the manifest's grant (null: none); read when first needed. */
  fetchPolicy(): Promise<readonly string[] | null>;
}

/** `host` or `host:port` of a URL, as grants write it (default ports left out). */
export function grantHostOf(url: URL): string {
  return url.port ? `${url.hostname}:${url.port}` : url.hostname;
}

/** Whether a URL may be fetched under a fetch grant: http(s) and an exactly listed host. */
export function isFetchAllowed(url: URL, hosts: readonly string[]): boolean {
  return (url.protocol === "https:" || url.protocol === "http:") && hosts.includes(grantHostOf(url).toLowerCase());
}

const FETCH_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** `localhost` and loopback addresses: a request to them never crosses a network. */
function isLoopbackHost(hostname: string): boolean {
  return hostname === "localhost" || hostname === "[::1]" || /^127(\.\d{1,3}){3}$/.test(hostname);
}

const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/** A response body within `max`, or an error for the gadget naming the host. */
async function readCapped(response: Response, max: number, host: string): Promise<Uint8Array> {
  const bytes = await readCappedBody(response, max);
  if (!bytes) throw new Error(`The response from ${host} is larger than ${max} bytes.`);
  return bytes;
}

/**
 * A URL as traces show it, shaped by the one rule (`url-shape.ts`): no credentials, no query (it may hold
 * keys), no fragment, no path segment that could be a secret. Shaped here, before any span or trace line
 * exists, so every record and share made from them is shaped too.
 */
function traceUrl(raw: string): string {
  return urlShape(raw)?.slice(0, 200) ?? "(invalid URL)";
}

/** The host and the path's shape of a URL for a span. */
function traceTarget(raw: string): TraceSpan["attributes"] {
  try {
    const url = new URL(raw);
    return { "server.address": grantHostOf(url), "url.path": pathShape(url.pathname).slice(0, 120) };
  } catch {
    return {};
  }
}

const denied = (capability: string, fix: string) => `env.${capability} is not granted to this gadget. ${fix}`;

export function createCapabilityHandler(options: {
  grants: GadgetGrants;
  services: CapabilityServices | undefined;
  trace(info: TraceInfo): void;
  /** Console lines and calls of agents this run calls, already marked with where they came from. */
  relay?(event: RunEvent): void;
  /** Aborted when the run ends: every call after it is refused, fetches in flight are cut. */
  signal: AbortSignal;
  now?: () => number;
  /** The run's granted secrets that are set, for `grants.fetch.headers` templates. */
  secrets?: ReadonlyMap<string, string>;
  /** Every secret the run could see (its callers' too): a catalog call's run redacts them. */
  inheritSecrets?: ReadonlyMap<string, string>;
}): CapabilityHandler {
  const { grants, services, trace, signal } = options;
  const now = options.now ?? Date.now;
  let fetches = 0;
  let policy: readonly string[] | null | undefined;

  /** What a call's work adds to its span while it runs. */
  interface SpanNotes {
    attributes: TraceSpan["attributes"];
    nested?: RunTrace;
  }

  async function traced(
    capability: TraceInfo["capability"],
    summary: string,
    attributes: TraceSpan["attributes"],
    work: (notes: SpanNotes) => Promise<unknown>,
    outcome?: (value: unknown) => string,
  ): Promise<CapabilityReply> {
    const started = now();
    const notes: SpanNotes = { attributes: { ...attributes } };
    const done = (ok: boolean, text: string) => {
      const end = now();
      trace({
        capability,
        summary: text,
        ok,
        ms: end - started,
        start: started,
        end,
        attributes: notes.attributes,
        ...(notes.nested ? { nested: notes.nested } : {}),
      });
    };
    try {
      const value = await work(notes);
      done(true, outcome ? `${summary} → ${outcome(value)}` : summary);
      return { ok: true, value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      done(false, `${summary} — ${message}`);
      return { ok: false, error: message };
    }
  }

  async function doFetch(call: Extract<CapabilityCall, { capability: "fetch" }>): Promise<unknown> {
    const hosts = grants.fetch?.hosts ?? [];
    if (!services)
      throw new Error(
        "Capabilities are not available in this run (shared and embedded runs have none). Fork the gadget to use them.",
      );
    if (++fetches > MAX_FETCHES_PER_RUN) throw new Error(`A run may fetch at most ${MAX_FETCHES_PER_RUN} times.`);
    // The harness ran in the gadget's realm: every field of the call is checked here again.
    if (call.body !== undefined && !(call.body instanceof Uint8Array))
      throw new Error("The request body must be bytes.");
    if (call.body && call.body.byteLength > MAX_FETCH_REQUEST_BYTES)
      throw new Error(`The request body is larger than ${MAX_FETCH_REQUEST_BYTES} bytes.`);
    // The methods of ordinary requests only: TRACE would have a server echo the injected headers back.
    if (
      typeof call.url !== "string" ||
      typeof call.method !== "string" ||
      !FETCH_METHODS.has(call.method.toUpperCase())
    )
      throw new Error(`Invalid request: env.fetch sends ${[...FETCH_METHODS].join(", ")}.`);
    const headers = Array.isArray(call.headers)
      ? call.headers
          .filter(
            (pair): pair is [string, string] =>
              Array.isArray(pair) && typeof pair[0] === "string" && typeof pair[1] === "string",
          )
          .slice(0, 100)
      : [];
    let url: URL;
    try {
      url = new URL(call.url);
    } catch {
      // Not quoted: the message is the span's too, and the text may hold a secret the rule could not shape.
      throw new Error("Invalid URL: env.fetch takes an absolute http(s) URL.");
    }
    let method = String(call.method || "GET").toUpperCase();
    let body = call.body;
    let sendHeaders = headers;
    const origin = url.origin;
    /**
     * The headers `grants.fetch.headers` gives this hop, secrets filled in: only for the granted host the
     * request was made to, never after a redirect to another origin (another host, port or scheme).
     */
    const injectedHeaders = (hop: URL): [string, string][] => {
      const host = grantHostOf(hop).toLowerCase();
      const templates = grants.fetch?.headers?.[host];
      if (!templates || hop.origin !== origin) return [];
      // Over plain HTTP anyone on the way would read the secret; only this machine's own services may.
      if (hop.protocol !== "https:" && !isLoopbackHost(hop.hostname))
        throw new Error(
          `fetch to ${host} was refused: grants.fetch.headers puts secrets only into https requests. Use https://${host}.`,
        );
      return Object.entries(templates).map(([name, template]): [string, string] => {
        const filled = fillTemplate(template, options.secrets ?? new Map());
        if (!filled.ok)
          throw new Error(
            `fetch to ${host} was refused: grants.fetch.headers fills its ${name} header from the secret ${filled.missing}, which is not set in this workspace. Set it (gadgets secrets set ${filled.missing}, or Secrets in the IDE).`,
          );
        // A line break would end the header and start another: the value is not sent at all.
        if (/[\r\n\0]/.test(filled.value))
          throw new Error(
            `fetch to ${host} was refused: a secret in its ${name} header holds a line break, which a header cannot carry.`,
          );
        return [name, filled.value];
      });
    };
    for (let hop = 0; ; hop++) {
      if (!isFetchAllowed(url, hosts)) {
        throw new Error(
          `fetch to ${grantHostOf(url)} was denied: add "${grantHostOf(url)}" to grants.fetch.hosts in gadget.json.`,
        );
      }
      policy ??= await services.fetchPolicy();
      if (policy && !isFetchAllowed(url, policy)) {
        throw new Error(
          `fetch to ${grantHostOf(url)} was denied by this workspace's policy: its settings allow fetches only to ${policy.join(", ") || "no host"}.`,
        );
      }
      const injected = injectedHeaders(url);
      // An injected header takes the place of the gadget's own of that name.
      const replaced = new Set(injected.map(([name]) => name.toLowerCase()));
      const hopHeaders = injected.length
        ? [...sendHeaders.filter(([name]) => !replaced.has(name.toLowerCase())), ...injected]
        : sendHeaders;
      let response: Response;
      try {
        response = await services.fetch(
          new Request(url, {
            method,
            headers: hopHeaders,
            redirect: "manual",
            ...(body && method !== "GET" && method !== "HEAD" ? { body } : {}),
          }),
          signal,
        );
      } catch (error) {
        // A network error may quote the URL; the message is the span's too.
        const shaped = urlShape(url.href) ?? "";
        const reason = (error instanceof Error ? error.message : String(error)).replaceAll(url.href, () => shaped);
        throw new Error(
          `Could not reach ${grantHostOf(url)} (${reason}). Gadgets reach public addresses only, unless the Workshop was started with --allow-local-fetch.`,
        );
      }
      const location = response.headers.get("location");
      if (response.status >= 300 && response.status < 400 && location) {
        if (hop >= MAX_FETCH_REDIRECTS) throw new Error(`More than ${MAX_FETCH_REDIRECTS} redirects.`);
        // Every hop is checked against the grant: a redirect cannot lead out of it.
        url = new URL(location, url);
        // As browsers do: credentials are not carried to another origin.
        if (url.origin !== origin)
          sendHeaders = sendHeaders.filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
        if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === "POST")) {
          method = "GET";
          body = undefined;
        }
        await response.body?.cancel();
        continue;
      }
      const bytes = await readCapped(response, MAX_FETCH_RESPONSE_BYTES, grantHostOf(url));
      return {
        status: response.status,
        statusText: response.statusText,
        headers: [...response.headers],
        body: bytes,
        url: url.toString(),
      };
    }
  }

  return {
    async call(call: CapabilityCall): Promise<CapabilityReply> {
      // A run that ended (timeout, cancel, done) keeps no authority, even if its isolate goes on.
      if (signal.aborted) return { ok: false, error: "This run has ended; its capabilities are gone." };
      switch (call?.capability) {
        case "kv": {
          const op = call.op;
          const summary = `kv.${op}(${JSON.stringify(String(call.key ?? call.prefix ?? "").slice(0, 80))})`;
          if (!grants.kv) return { ok: false, error: denied("kv", 'Add "kv": true to grants in gadget.json.') };
          const kvKey = String(call.key ?? call.prefix ?? "").slice(0, 80);
          return traced("kv", summary, { "kv.op": String(op).slice(0, 16), "kv.key": kvKey }, async (notes) => {
            if (!services)
              throw new Error(
                "Capabilities are not available in this run (shared and embedded runs have none). Fork the gadget to use them.",
              );
            if (op !== "get" && op !== "put" && op !== "delete" && op !== "list")
              throw new Error(`Unknown kv operation ${JSON.stringify(op)}.`);
            const key = String(op === "list" ? (call.prefix ?? "") : (call.key ?? ""));
            if (byteLength(key) > KV_MAX_KEY_BYTES)
              throw new Error(`A kv key is at most ${KV_MAX_KEY_BYTES} bytes; this one is ${byteLength(key)}.`);
            if (op !== "list" && key === "") throw new Error("A kv key cannot be empty.");
            const value = op === "put" ? String(call.value ?? "") : undefined;
            if (value !== undefined && byteLength(value) > KV_MAX_VALUE_BYTES)
              throw new Error(`A kv value is at most ${KV_MAX_VALUE_BYTES} bytes; this one is ${byteLength(value)}.`);
            // Sizes, never values: a trace is shared with the run.
            if (value !== undefined) notes.attributes["kv.value_bytes"] = byteLength(value);
            const result = await services.kv(op, key, value);
            if (op === "get") notes.attributes["kv.hit"] = result !== null && result !== undefined;
            return result;
          });
        }
        case "fetch": {
          if (!grants.fetch)
            return {
              ok: false,
              error: denied("fetch", 'Add "fetch": { "hosts": ["api.example.com"] } to grants in gadget.json.'),
            };
          const method = String(call.method || "GET")
            .toUpperCase()
            .slice(0, 16);
          return traced(
            "fetch",
            `${method} ${traceUrl(String(call.url))}`,
            { "http.request.method": method, ...traceTarget(String(call.url)) },
            async (notes) => {
              const response = (await doFetch(call)) as { status: number; body: Uint8Array };
              notes.attributes["http.response.status_code"] = response.status;
              notes.attributes["http.response.body.size"] = response.body.byteLength;
              return response;
            },
            (value) => {
              const response = value as { status: number; body: Uint8Array };
              return `${response.status}, ${response.body.byteLength} bytes`;
            },
          );
        }
        case "catalog": {
          if (!grants.catalog)
            return { ok: false, error: denied("catalog", 'Add "catalog": true to grants in gadget.json.') };
          const ref = String(call.ref).slice(0, 80);
          return traced(
            "catalog",
            `catalog.get(${JSON.stringify(ref)}).run()`,
            { "catalog.ref": ref },
            async (notes) => {
              if (!services)
                throw new Error(
                  "Capabilities are not available in this run (shared and embedded runs have none). Fork the gadget to use them.",
                );
              const nested = await services.catalog(
                String(call.ref),
                call.payload,
                (event) => options.relay?.(event),
                options.inheritSecrets ?? new Map(),
              );
              notes.attributes["catalog.agent"] = `${nested.agent}@${nested.version}`;
              if (nested.trace) notes.nested = nested.trace;
              if (nested.outcome.status === "ok") return nested.outcome.result;
              throw new Error(
                `${nested.agent}@${nested.version} failed (${nested.outcome.kind}): ${nested.outcome.message}`,
              );
            },
          );
        }
        default:
          return { ok: false, error: "Unknown capability." };
      }
    },
  };
}
