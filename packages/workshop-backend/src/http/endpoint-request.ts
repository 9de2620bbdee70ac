/**
 * An HTTP request to an agent's endpoint as the agent's input (`EndpointRequest`): method, the path
 * below the endpoint, query, headers (lower-case names; never Cookie) and the body — JSON when the
 * content type says JSON and it parses, else text. What the run's record keeps is the same with the
 * values of credential headers, query parameters and JSON or form body fields redacted (a body that
 * may hold a credential the Workshop cannot pick out is not kept at all): records are listed, shared
 * and logged.
 */

import { pathShape } from "../url-shape.ts";
import type { EndpointRequest, JsonValue } from "@gadgets/workshop-shared/api";
import { MAX_ENDPOINT_BODY_BYTES, MAX_PAYLOAD_BYTES, REQUEST_BODY_READ_MS } from "@gadgets/workshop-shared/limits";
import { byteLength } from "@gadgets/workshop-shared/validate";
import { readRequestBody } from "../capped-body.ts";
import { isCredentialName, isCredentialValue, mentionsCredentialField } from "./credential-names.ts";

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
/** Headers whose value is a URL: its query is redacted as the request's own is (`Referer: …?access_token=…`). */
const URL_HEADERS = new Set(["referer", "x-original-url", "x-original-uri", "x-forwarded-uri", "x-rewrite-url"]);

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

/** A body under the limit can still make an input over the payload limit: JSON writes a control character in six bytes. */
const tooLargeAsInput = (bytes: number): ReadEndpointRequest => ({
  ok: false,
  status: 413,
  kind: "too_large",
  message: `The request is ${bytes} bytes as the agent's input (JSON, where each control character of the body takes six bytes and each byte that is not UTF-8 three); the limit is ${MAX_PAYLOAD_BYTES} bytes. Send less, or send binary data encoded (base64).`,
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

/**
 * A form's text with its credential fields redacted, and the credential fields of a field that holds
 * JSON (Slack sends `payload={…}`); the text as it was when nothing is. Undefined when `text` is no form
 * (sent as another type, a form has no white space and at least one `=`).
 */
function redactedForm(text: string, declared: boolean): string | undefined {
  if (!declared && (/\s/.test(text) || !text.includes("="))) return undefined;
  const kept = new URLSearchParams();
  let redacted = false;
  for (const [name, value] of new URLSearchParams(text)) {
    const credential = isCredentialName(name);
    const json = credential ? undefined : redactedJson(value);
    const recorded = credential ? REDACTED : json?.redacted ? JSON.stringify(json.value) : value;
    redacted ||= recorded !== value;
    kept.append(name, recorded);
  }
  return redacted ? kept.toString() : text;
}

/** Newline-delimited JSON (two lines or more, each JSON) with each line redacted; undefined if it is not. */
function redactedLines(text: string): string | undefined {
  const lines = text.split("\n").filter((line) => line.trim() !== "");
  if (lines.length < 2) return undefined;
  const read = lines.map((line) => redactedJson(line));
  if (read.some((line) => line === undefined)) return undefined;
  if (!read.some((line) => line?.redacted)) return text;
  return read.map((line) => JSON.stringify(line?.value)).join("\n");
}

/**
 * What the record keeps of a body that is not the JSON or multipart its type says, or has no type that
 * says: JSON (`fetch` with a string body sends text/plain), NDJSON or a form, redacted as such; else the
 * text, unless something in it is shaped like a credential field — then none of it.
 */
function recordedText(text: string, contentType: string | null): string {
  const json = redactedJson(text);
  if (json) return json.redacted ? JSON.stringify(json.value) : text;
  const readable = redactedLines(text) ?? redactedForm(text, isFormType(contentType));
  if (readable !== undefined) return readable;
  return mentionsCredentialField(text) ? REDACTED : text;
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

/** How an endpoint gives its agent a body (`triggers.http.body`): JSON parsed when it is JSON, or always the text. */
export type EndpointBodyMode = "json" | "text";

/**
 * The body as the gadget reads it (JSON when its type says so and it parses, else text; always text in
 * "text" mode) and as its record keeps it.
 */
async function bodyValues(
  bytes: Uint8Array,
  contentType: string | null,
  mode: EndpointBodyMode,
): Promise<{ body: JsonValue; recorded: JsonValue }> {
  if (bytes.byteLength === 0) return { body: null, recorded: null };
  const text = new TextDecoder().decode(bytes);
  if (mode === "json" && isJsonType(contentType)) {
    // A second parse, so the gadget's copy is untouched; at any depth (`{"auth": {"token": …}}`).
    const recorded = redactedJson(text);
    // Not JSON after all: the gadget gets the text and can say what is wrong with it.
    if (recorded) return { body: JSON.parse(text) as JsonValue, recorded: recorded.value };
  } else if (contentType !== null && mediaType(contentType) === "multipart/form-data")
    return { body: text, recorded: (await hasCredentialPart(bytes, contentType)) ? REDACTED : text };
  return { body: text, recorded: recordedText(text, contentType) };
}

/** A URL (absolute, or a path with a query) with its credential query parameters redacted. */
function redactedUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value, "http://relative.invalid");
  } catch {
    return mentionsCredentialField(value) ? REDACTED : value;
  }
  let redacted = false;
  for (const name of new Set(url.searchParams.keys())) {
    if (!isCredentialName(name)) continue;
    url.searchParams.set(name, REDACTED);
    redacted = true;
  }
  if (!redacted) return value;
  return url.origin === "http://relative.invalid" ? `${url.pathname}${url.search}${url.hash}` : url.href;
}

/** A header's value as the record keeps it. */
function recordedHeader(name: string, value: string): string {
  if (isCredentialName(name, "header") || isCredentialValue(value)) return REDACTED;
  return URL_HEADERS.has(name) ? redactedUrl(value) : value;
}

/** The input's size as JSON; 0 for one nested too deep to write, which the run then refuses for its depth. */
function jsonBytes(input: EndpointRequest): number {
  try {
    return byteLength(JSON.stringify(input));
  } catch {
    return 0;
  }
}

/**
 * Reads `request` as the agent's input, its body as `mode` says. `path` is the part of the URL path below `/h/<endpoint>`; a
 * body past MAX_ENDPOINT_BODY_BYTES (413) or slower than REQUEST_BODY_READ_MS (408) is refused before
 * anything runs.
 */
export async function readEndpointRequest(
  request: Request,
  path: string,
  mode: EndpointBodyMode = "json",
): Promise<ReadEndpointRequest> {
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
    setOwn(recordedHeaders, name, recordedHeader(name, value));
  }
  const { body, recorded } = await bodyValues(bytes, request.headers.get("content-type"), mode);
  const method = request.method.toUpperCase();
  const input: EndpointRequest = { method, path, query, headers, body };
  const inputBytes = jsonBytes(input);
  if (inputBytes > MAX_PAYLOAD_BYTES) return tooLargeAsInput(inputBytes);
  return {
    ok: true,
    input,
    // A path may carry a credential too (`/bot<token>/send`): the record keeps its shape, as the trigger does.
    recorded: { method, path: pathShape(path), query: recordedQuery, headers: recordedHeaders, body: recorded },
  };
}
