/**
 * An HTTP request to an agent's endpoint as the agent's input (`EndpointRequest`): method, the path
 * below the endpoint, query, headers (lower-case names; never Cookie) and the body — JSON when the
 * content type says JSON and it parses, else text. What the run's record keeps is the same with the
 * values of credential headers, query parameters and JSON or form body fields redacted (a multipart
 * body with a credential part is not kept at all): records are listed, shared and logged.
 */

import { pathShape } from "../url-shape.ts";
import type { EndpointRequest, JsonValue } from "@gadgets/workshop-shared/api";
import { MAX_ENDPOINT_BODY_BYTES, REQUEST_BODY_READ_MS } from "@gadgets/workshop-shared/limits";
import { readRequestBody } from "../capped-body.ts";

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
const CREDENTIAL_PARTS = [
  "authorization",
  "token",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "apikey",
  "api-key",
  "api_key",
  "accesskey",
  "access-key",
  "access_key",
  "private-key",
  "private_key",
  // Azure Functions' `x-functions-key`, API Management's `ocp-apim-subscription-key`.
  "functions-key",
  "subscription-key",
];
/** Whole names that are credentials (`?key=` of many APIs, `X-Auth`). */
const CREDENTIAL_NAMES = new Set(["auth", "key", "x-auth"]);
/**
 * In a query or a form only: a signed URL's signature is its credential (S3's `X-Amz-Signature`, a SAS
 * `sig`), as is an OAuth or Azure Functions `code`. A signature header (`X-Hub-Signature-256`) is bound
 * to its body and is kept: it is what a webhook's author debugs.
 */
const QUERY_CREDENTIAL_PARTS = ["signature"];
const QUERY_CREDENTIAL_NAMES = new Set(["sig", "code"]);

/**
 * Whether the value of a header (`in: "header"`) or of a query parameter, form field or JSON body key
 * (`in: "field"`) named `name` is kept out of records.
 */
export function isCredentialName(name: string, where: "header" | "field" = "field"): boolean {
  const lower = name.toLowerCase();
  if (CREDENTIAL_NAMES.has(lower) || CREDENTIAL_PARTS.some((part) => lower.includes(part))) return true;
  return (
    where === "field" && (QUERY_CREDENTIAL_NAMES.has(lower) || QUERY_CREDENTIAL_PARTS.some((p) => lower.includes(p)))
  );
}

export type ReadEndpointRequest =
  | { ok: true; input: EndpointRequest; recorded: EndpointRequest }
  | { ok: false; status: 413; kind: "too_large"; message: string }
  | { ok: false; status: 408; kind: "too_slow"; message: string };

/** An own data property, even for a name like `__proto__` (a query may name anything). */
function setOwn<T>(target: Record<string, T>, name: string, value: T): void {
  Object.defineProperty(target, name, { value, enumerable: true, writable: true, configurable: true });
}

const tooLarge = (): ReadEndpointRequest => ({
  ok: false,
  status: 413,
  kind: "too_large",
  message: `The request body is larger than ${MAX_ENDPOINT_BODY_BYTES} bytes, the limit of an endpoint. Send less, or a link to the data.`,
});

const tooSlow = (ms: number): ReadEndpointRequest => ({
  ok: false,
  status: 408,
  kind: "too_slow",
  message: `The request body did not arrive within ${ms / 1000} s of its headers, the limit of an endpoint. Send it whole, at once.`,
});

/** A Content-Type's media type, lower-case, its parameters (`; charset=…`) aside. */
function mediaType(contentType: string | null): string {
  return (contentType ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
}

/** `application/json`, `application/problem+json`, `text/json`…, parameters aside. */
function isJsonType(contentType: string | null): boolean {
  const type = mediaType(contentType);
  return type === "application/json" || type === "text/json" || type.endsWith("+json");
}

function isFormType(contentType: string | null): boolean {
  return mediaType(contentType) === "application/x-www-form-urlencoded";
}

/** `text` parsed as JSON with credential fields redacted at any depth, `undefined` if it is not JSON. */
function redactedJson(text: string): { value: JsonValue; redacted: boolean } | undefined {
  let redacted = false;
  try {
    const value = JSON.parse(text, (key, value: unknown) => {
      if (key === "" || !isCredentialName(key)) return value;
      redacted = true;
      return REDACTED;
    }) as JsonValue;
    return { value, redacted };
  } catch (error) {
    // Nested past what the reviver's recursion takes: the record keeps nothing of it rather than a secret.
    return error instanceof RangeError ? { value: REDACTED, redacted: true } : undefined;
  }
}

/** Whether a multipart body has a part named as a credential is (`token`, `api_key`…). */
async function hasCredentialPart(bytes: Uint8Array, contentType: string): Promise<boolean> {
  try {
    const form = await new Response(bytes, { headers: { "content-type": contentType } }).formData();
    return [...form.keys()].some((name) => isCredentialName(name));
  } catch {
    // Not the multipart its type says: nothing tells what it holds, so the record keeps none of it.
    return true;
  }
}

/**
 * The body as the gadget reads it and as its record keeps it: credential fields of a JSON or form body
 * redacted; JSON sent as another type (`fetch` with a string body sends text/plain) too; a multipart
 * body with a credential part kept out of the record whole.
 */
async function bodyValues(
  bytes: Uint8Array,
  contentType: string | null,
): Promise<{ body: JsonValue; recorded: JsonValue }> {
  if (bytes.byteLength === 0) return { body: null, recorded: null };
  const text = new TextDecoder().decode(bytes);
  if (isJsonType(contentType)) {
    // A second parse, so the gadget's copy is untouched; at any depth (`{"auth": {"token": …}}`).
    const recorded = redactedJson(text);
    // Not JSON after all: the gadget gets the text and can say what is wrong with it.
    if (!recorded) return { body: text, recorded: text };
    return { body: JSON.parse(text) as JsonValue, recorded: recorded.value };
  }
  if (isFormType(contentType)) {
    const fields = new URLSearchParams(text);
    let redacted = false;
    for (const name of new Set(fields.keys())) {
      if (!isCredentialName(name)) continue;
      fields.set(name, REDACTED);
      redacted = true;
    }
    // Untouched when nothing was redacted: the record shows the body as it was encoded.
    return { body: text, recorded: redacted ? fields.toString() : text };
  }
  if (contentType !== null && mediaType(contentType) === "multipart/form-data")
    return { body: text, recorded: (await hasCredentialPart(bytes, contentType)) ? REDACTED : text };
  const json = redactedJson(text);
  return { body: text, recorded: json?.redacted ? JSON.stringify(json.value) : text };
}

/**
 * Reads `request` as the agent's input. `path` is the part of the URL path below `/h/<endpoint>`; a
 * body past MAX_ENDPOINT_BODY_BYTES (413) or slower than REQUEST_BODY_READ_MS (408) is refused before
 * anything runs.
 */
export async function readEndpointRequest(request: Request, path: string): Promise<ReadEndpointRequest> {
  const read = await readRequestBody(request, MAX_ENDPOINT_BODY_BYTES, REQUEST_BODY_READ_MS);
  if (!read.ok) return read.reason === "too_large" ? tooLarge() : tooSlow(read.ms);
  const { bytes } = read;
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
    setOwn(recordedHeaders, name, isCredentialName(name, "header") ? REDACTED : value);
  }
  const { body, recorded } = await bodyValues(bytes, request.headers.get("content-type"));
  const method = request.method.toUpperCase();
  return {
    ok: true,
    input: { method, path, query, headers, body },
    // A path may carry a credential too (`/bot<token>/send`): the record keeps its shape, as the trigger does.
    recorded: { method, path: pathShape(path), query: recordedQuery, headers: recordedHeaders, body: recorded },
  };
}
