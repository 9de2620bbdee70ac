/**
 * An HTTP request to an agent's endpoint as the agent's input (`EndpointRequest`): method, the path
 * below the endpoint, query, headers (lower-case names; never Cookie) and the body — JSON when the
 * content type says JSON and it parses, else text. What the run's record keeps is the same with the
 * values of credential headers and query parameters redacted: records are listed, shared and logged.
 */

import { pathShape } from "../url-shape.ts";
import type { EndpointRequest, JsonValue } from "@gadgets/workshop-shared/api";
import { MAX_ENDPOINT_BODY_BYTES } from "@gadgets/workshop-shared/limits";
import { readCappedBody } from "../capped-body.ts";

/** The header workerd sets on each local socket (gadget-origin.ts): the Workshop's own, not the caller's. */
export const SOCKET_HEADER = "workshop-socket";

/** Headers that name the caller's address, left out of the recorded copy. */
const CALLER_ADDRESS_HEADERS = new Set([
  "cf-connecting-ip",
  "cf-connecting-ipv6",
  "cf-ipcountry",
  "true-client-ip",
  "x-forwarded-for",
  "x-real-ip",
  "forwarded",
]);

/** What a recorded credential value reads as. */
export const REDACTED = "[redacted]";

/** Never part of the input: a browser sends the cookies of every port of the host (they are not per origin). */
const DROPPED_HEADERS = new Set(["cookie", SOCKET_HEADER]);
/** Names whose values are credentials, wherever they appear in a name (`x-api-key`, `access_token`, `client-secret`). */
const CREDENTIAL_PARTS = ["authorization", "token", "secret", "password", "passwd", "apikey", "api-key", "api_key"];
/** Whole names that are credentials (`?key=` of many APIs, `X-Auth`). */
const CREDENTIAL_NAMES = new Set(["auth", "key", "x-auth"]);

/** Whether the value of a header or query parameter named `name` is kept out of records. */
export function isCredentialName(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_NAMES.has(lower) || CREDENTIAL_PARTS.some((part) => lower.includes(part));
}

export type ReadEndpointRequest =
  | { ok: true; input: EndpointRequest; recorded: EndpointRequest }
  | { ok: false; status: 413; message: string };

/** An own data property, even for a name like `__proto__` (a query may name anything). */
function setOwn<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

const tooLarge = (): ReadEndpointRequest => ({
  ok: false,
  status: 413,
  message: `The request body is larger than ${MAX_ENDPOINT_BODY_BYTES} bytes, the limit of an endpoint. Send less, or a link to the data.`,
});

/** `application/json`, `application/problem+json`, `text/json`…, parameters aside. */
function isJsonType(contentType: string | null): boolean {
  const type = (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  return type === "application/json" || type === "text/json" || type.endsWith("+json");
}

function bodyValue(bytes: Uint8Array, contentType: string | null): JsonValue {
  if (bytes.byteLength === 0) return null;
  const text = new TextDecoder().decode(bytes);
  if (isJsonType(contentType)) {
    try {
      return JSON.parse(text) as JsonValue;
    } catch {
      // Not JSON after all: the gadget gets the text and can say what is wrong with it.
    }
  }
  return text;
}

/**
 * Reads `request` as the agent's input. `path` is the part of the URL path below `/h/<endpoint>`; a
 * body past MAX_ENDPOINT_BODY_BYTES is refused (413) before anything runs.
 */
export async function readEndpointRequest(request: Request, path: string): Promise<ReadEndpointRequest> {
  const bytes = await readCappedBody(request, MAX_ENDPOINT_BODY_BYTES);
  if (!bytes) return tooLarge();
  const url = new URL(request.url);
  const query: EndpointRequest["query"] = {};
  const recordedQuery: EndpointRequest["query"] = {};
  for (const name of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(name);
    const value = values.length === 1 ? (values[0] ?? "") : values;
    setOwn(query, name, value);
    setOwn(recordedQuery, name, isCredentialName(name) ? REDACTED : value);
  }
  const headers: EndpointRequest["headers"] = {};
  const recordedHeaders: EndpointRequest["headers"] = {};
  for (const [name, value] of request.headers) {
    if (DROPPED_HEADERS.has(name)) continue;
    setOwn(headers, name, value);
    // The caller's address is the gadget's to read, not the record's: a record can be shared.
    if (CALLER_ADDRESS_HEADERS.has(name)) continue;
    setOwn(recordedHeaders, name, isCredentialName(name) ? REDACTED : value);
  }
  const body = bodyValue(bytes, request.headers.get("content-type"));
  const method = request.method.toUpperCase();
  return {
    ok: true,
    input: { method, path, query, headers, body },
    // A path may carry a credential too (`/bot<token>/send`): the record keeps its shape, as the trigger does.
    recorded: { method, path: pathShape(path), query: recordedQuery, headers: recordedHeaders, body },
  };
}
