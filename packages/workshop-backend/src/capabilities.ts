/**
 * The gatekeeper: performs a gadget's capability calls outside its isolate, only when granted, within
 * quotas, and traces each one into the run's event stream. Grants travel as this handler (an RPC
 * capability), never as a token or URL the gadget could keep or leak.
 */

import type { GadgetGrants, JsonValue } from "@gadgets/workshop-shared/api";
import {
  KV_MAX_KEY_BYTES,
  KV_MAX_VALUE_BYTES,
  MAX_FETCH_REDIRECTS,
  MAX_FETCH_REQUEST_BYTES,
  MAX_FETCH_RESPONSE_BYTES,
  MAX_FETCHES_PER_RUN,
} from "@gadgets/workshop-shared/limits";
import { byteLength } from "@gadgets/workshop-shared/validate";
import type { CapabilityCall, CapabilityHandler, CapabilityReply } from "./executors/executor.ts";

export interface TraceInfo {
  capability: "fetch" | "kv" | "catalog";
  summary: string;
  ok: boolean;
  ms: number;
}

/** What the handler needs from the workspace; scoped to one gadget by the caller. */
export interface CapabilityServices {
  kv(op: "get" | "put" | "delete" | "list", key: string, value: string | undefined): Promise<unknown>;
  /** Runs another published agent of the same workspace; rejects with a message for the gadget. */
  catalog(ref: string, payload: JsonValue): Promise<JsonValue>;
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

const CREDENTIAL_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/** A response body, read in chunks and refused as soon as it passes `max` (never held whole first). */
async function readCapped(response: Response, max: number, host: string): Promise<Uint8Array> {
  const tooLarge = () => new Error(`The response from ${host} is larger than ${max} bytes.`);
  const declared = Number(response.headers.get("content-length") ?? "0");
  if (declared > max) {
    await response.body?.cancel();
    throw tooLarge();
  }
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/** A URL as traces show it: no credentials, no query (it may hold keys), no fragment. */
function traceUrl(raw: string): string {
  try {
    const url = new URL(raw);
    return `${url.origin}${url.pathname}${url.search ? "?…" : ""}`.slice(0, 200);
  } catch {
    return "(invalid URL)";
  }
}

const denied = (capability: string, fix: string) => `env.${capability} is not granted to this gadget. ${fix}`;

export function createCapabilityHandler(options: {
  grants: GadgetGrants;
  services: CapabilityServices | undefined;
  trace(info: TraceInfo): void;
  /** Aborted when the run ends: every call after it is refused, fetches in flight are cut. */
  signal: AbortSignal;
  now?: () => number;
}): CapabilityHandler {
  const { grants, services, trace, signal } = options;
  const now = options.now ?? Date.now;
  let fetches = 0;
  let policy: readonly string[] | null | undefined;

  async function traced(
    capability: TraceInfo["capability"],
    summary: string,
    work: () => Promise<unknown>,
    outcome?: (value: unknown) => string,
  ): Promise<CapabilityReply> {
    const started = now();
    try {
      const value = await work();
      trace({
        capability,
        summary: outcome ? `${summary} → ${outcome(value)}` : summary,
        ok: true,
        ms: now() - started,
      });
      return { ok: true, value };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      trace({ capability, summary: `${summary} — ${message}`, ok: false, ms: now() - started });
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
    if (typeof call.url !== "string" || typeof call.method !== "string" || !/^[A-Za-z]{1,16}$/.test(call.method))
      throw new Error("Invalid request.");
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
      throw new Error(`Invalid URL ${JSON.stringify(String(call.url).slice(0, 200))}.`);
    }
    let method = String(call.method || "GET").toUpperCase();
    let body = call.body;
    let sendHeaders = headers;
    const origin = url.origin;
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
      let response: Response;
      try {
        response = await services.fetch(
          new Request(url, {
            method,
            headers: sendHeaders,
            redirect: "manual",
            ...(body && method !== "GET" && method !== "HEAD" ? { body } : {}),
          }),
          signal,
        );
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
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
          return traced("kv", summary, async () => {
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
            return services.kv(op, key, value);
          });
        }
        case "fetch": {
          if (!grants.fetch)
            return {
              ok: false,
              error: denied("fetch", 'Add "fetch": { "hosts": ["api.example.com"] } to grants in gadget.json.'),
            };
          const method = String(call.method || "GET").toUpperCase();
          return traced(
            "fetch",
            `${method} ${traceUrl(String(call.url))}`,
            () => doFetch(call),
            (value) => {
              const response = value as { status: number; body: Uint8Array };
              return `${response.status}, ${response.body.byteLength} bytes`;
            },
          );
        }
        case "catalog": {
          if (!grants.catalog)
            return { ok: false, error: denied("catalog", 'Add "catalog": true to grants in gadget.json.') };
          return traced("catalog", `catalog.get(${JSON.stringify(String(call.ref).slice(0, 80))}).run()`, async () => {
            if (!services)
              throw new Error(
                "Capabilities are not available in this run (shared and embedded runs have none). Fork the gadget to use them.",
              );
            return services.catalog(String(call.ref), call.payload);
          });
        }
        default:
          return { ok: false, error: "Unknown capability." };
      }
    },
  };
}
