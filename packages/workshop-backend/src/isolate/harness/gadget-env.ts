/**
 * The `env` a gadget's `run` receives: exactly its granted capabilities. Each call only asks the
 * overseer over the run's capability channel; the overseer decides and performs it outside the isolate.
 */

import type { GadgetGrants, JsonValue } from "@gadgets/workshop-shared/api";
import type { CapabilityCall, CapabilityHandler } from "../../executors/executor.ts";

export interface GadgetKv {
  get(key: unknown): Promise<unknown>;
  put(key: unknown, value: unknown): Promise<unknown>;
  delete(key: unknown): Promise<unknown>;
  list(prefix?: unknown): Promise<unknown>;
}

export interface GadgetCatalog {
  get(ref: unknown): { run(payload?: unknown): Promise<unknown> };
}

export interface GadgetEnv {
  kv?: GadgetKv;
  fetch?: (input: RequestInfo | URL, init?: RequestInit) => Promise<Response>;
  catalog?: GadgetCatalog;
  secrets?: Readonly<Record<string, string>>;
}

/** What a granted fetch gets back from the overseer. */
interface FetchReply {
  status: number;
  statusText: string;
  headers: [string, string][];
  body?: Uint8Array | null;
}

// These statuses have no body, and the Response constructor refuses one.
const BODYLESS_STATUSES = [101, 204, 205, 304];

export function buildEnv(
  grants: GadgetGrants | null | undefined,
  capabilities: CapabilityHandler | null,
  secrets: Readonly<Record<string, string>> | null = null,
): Readonly<GadgetEnv> {
  const call = async (request: CapabilityCall): Promise<unknown> => {
    // A gadget granted nothing gets no channel, and its env has nothing that could call.
    if (!capabilities) throw new Error("This gadget was granted no capabilities.");
    const reply = await capabilities.call(request);
    if (reply?.ok !== true)
      throw new Error(reply && typeof reply.error === "string" ? reply.error : "The capability call failed.");
    return reply.value;
  };
  const env: GadgetEnv = {};
  if (grants?.kv) {
    env.kv = Object.freeze({
      get: (key: unknown) => call({ capability: "kv", op: "get", key: String(key) }),
      put: (key: unknown, value: unknown) =>
        call({ capability: "kv", op: "put", key: String(key), value: String(value) }),
      delete: (key: unknown) => call({ capability: "kv", op: "delete", key: String(key) }),
      list: (prefix: unknown = "") => call({ capability: "kv", op: "list", prefix: String(prefix) }),
    });
  }
  if (grants?.fetch) {
    env.fetch = async (input, init) => {
      const request = new Request(input, init);
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const reply = (await call({
        capability: "fetch",
        url: request.url,
        method: request.method,
        headers: [...request.headers],
        ...(body ? { body } : {}),
      })) as FetchReply;
      const bodyless = BODYLESS_STATUSES.includes(reply.status);
      return new Response(bodyless ? null : (reply.body ?? null), {
        status: reply.status,
        statusText: reply.statusText,
        headers: reply.headers,
      });
    };
  }
  if (grants?.catalog) {
    env.catalog = Object.freeze({
      get: (ref: unknown) =>
        Object.freeze({
          run: (payload?: unknown) =>
            call({
              capability: "catalog",
              ref: String(ref),
              payload: payload === undefined ? null : (payload as JsonValue),
            }),
        }),
    });
  }
  if (grants?.secrets) {
    // Only granted names, only string values: the job's object is input like any other.
    const values: Record<string, string> = {};
    for (const name of grants.secrets) {
      const value = secrets && Object.hasOwn(secrets, name) ? secrets[name] : undefined;
      if (typeof value === "string") values[name] = value;
    }
    env.secrets = Object.freeze(values);
  }
  return Object.freeze(env);
}
