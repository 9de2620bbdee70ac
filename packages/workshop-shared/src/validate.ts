/**
 * Run-time checks for everything that arrives over the wire. Each check returns a tagged result whose
 * error text says what was wrong, the details, and how to fix it. Shared so the IDE can show the same
 * message before a request is ever sent.
 */

import { type GadgetFile, type GadgetGrants, type GadgetManifest, type JsonValue, MANIFEST_PATH } from "./api.ts";
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FETCH_HOSTS,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_GADGET_BYTES,
  MAX_ID_LENGTH,
  MAX_NAME_LENGTH,
  MAX_PATH_DEPTH,
  MAX_PATH_LENGTH,
  MAX_PAYLOAD_BYTES,
  MAX_RUN_TIMEOUT_MS,
} from "./limits.ts";

export type Checked<T> = { ok: true; value: T } | { ok: false; error: string };

const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
const fail = <T>(error: string): Checked<T> => ({ ok: false, error });

const encoder = new TextEncoder();
/** UTF-8 size of a string, without allocating for the common ASCII case twice. */
export function byteLength(text: string): number {
  return encoder.encode(text).byteLength;
}

/** Ids are base64url strings we generated; anything else is refused before any lookup. */
export function checkId(value: unknown, what: string): Checked<string> {
  if (typeof value !== "string" || !/^[A-Za-z0-9_-]{1,64}$/.test(value) || value.length > MAX_ID_LENGTH) {
    return fail(`Invalid ${what}: expected the id string the Workshop gave you (letters, digits, _ and -).`);
  }
  return ok(value);
}

/**
 * A payload must be plain JSON data within MAX_PAYLOAD_BYTES. Walks the value instead of trusting
 * JSON.stringify, which silently drops undefined, functions and NaN.
 */
export function checkPayload(value: unknown, what = "payload"): Checked<JsonValue> {
  const problem = findNonJson(value, `${what}`, 0);
  if (problem)
    return fail(
      `Invalid ${what}: ${problem}. Send plain JSON data (objects, arrays, strings, finite numbers, booleans, null).`,
    );
  const size = byteLength(JSON.stringify(value));
  if (size > MAX_PAYLOAD_BYTES) {
    return fail(
      `The ${what} is ${size} bytes as JSON; the limit is ${MAX_PAYLOAD_BYTES} bytes. Send less data, or pass a reference to it.`,
    );
  }
  return ok(value as JsonValue);
}

function findNonJson(value: unknown, at: string, depth: number): string | undefined {
  if (depth > 64) return `${at} is nested more than 64 levels deep`;
  if (value === null || typeof value === "string" || typeof value === "boolean") return undefined;
  if (typeof value === "number")
    return Number.isFinite(value) ? undefined : `${at} is ${value}, which JSON cannot carry`;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = findNonJson(value[i], `${at}[${i}]`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === "object") {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null)
      return `${at} is a ${proto?.constructor?.name ?? "non-plain"} object`;
    for (const [key, entry] of Object.entries(value)) {
      const problem = findNonJson(entry, `${at}.${key}`, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  return `${at} is ${typeof value === "undefined" ? "undefined" : `a ${typeof value}`}`;
}

/** A run's wall-clock limit, whether asked for one run or set for a workspace. */
export function checkTimeoutMs(value: unknown, name: string): Checked<number> {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_RUN_TIMEOUT_MS) {
    return fail(
      `${name} must be a whole number of milliseconds from 1 to ${MAX_RUN_TIMEOUT_MS} (the server's maximum).`,
    );
  }
  return ok(value);
}

/** Source files the isolate can load as modules. */
export const MODULE_EXTENSIONS = [".ts", ".js", ".mjs"] as const;
/** Other files a gadget may carry (docs, data). */
export const DATA_EXTENSIONS = [".json", ".md", ".txt"] as const;

export function isModulePath(path: string): boolean {
  return MODULE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

/** A relative path made of plain segments: no `..`, no leading `/`, no hidden files, known extension. */
export function checkPath(value: unknown): Checked<string> {
  if (typeof value !== "string" || value.length === 0) return fail("A file path must be a non-empty string.");
  if (value.length > MAX_PATH_LENGTH)
    return fail(`File path "${value.slice(0, 40)}…" is longer than ${MAX_PATH_LENGTH} characters.`);
  const segments = value.split("/");
  if (segments.length - 1 > MAX_PATH_DEPTH)
    return fail(`File path "${value}" is nested deeper than ${MAX_PATH_DEPTH} folders.`);
  for (const segment of segments) {
    if (!/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/.test(segment) || segment.includes("..")) {
      return fail(
        `File path "${value}" is not allowed: use letters, digits, "_", "-" and "." in each part, like "lib/util.ts".`,
      );
    }
  }
  if (![...MODULE_EXTENSIONS, ...DATA_EXTENSIONS].some((ext) => value.endsWith(ext))) {
    return fail(
      `File "${value}" has an unsupported type; use one of ${[...MODULE_EXTENSIONS, ...DATA_EXTENSIONS].join(" ")}.`,
    );
  }
  return ok(value);
}

/** The files of a gadget: valid paths, no duplicates, within the size limits, with a manifest. */
export function checkFiles(value: unknown): Checked<GadgetFile[]> {
  if (!Array.isArray(value)) return fail("files must be an array of { path, content }.");
  if (value.length > MAX_FILES) return fail(`A gadget has at most ${MAX_FILES} files; this one has ${value.length}.`);
  const seen = new Set<string>();
  const files: GadgetFile[] = [];
  let total = 0;
  for (const item of value) {
    if (typeof item !== "object" || item === null) return fail("Each file must be an object { path, content }.");
    const { path, content } = item as { path?: unknown; content?: unknown };
    const checkedPath = checkPath(path);
    if (!checkedPath.ok) return checkedPath;
    if (typeof content !== "string") return fail(`File "${checkedPath.value}" has no text content.`);
    if (seen.has(checkedPath.value.toLowerCase())) return fail(`File "${checkedPath.value}" appears twice.`);
    seen.add(checkedPath.value.toLowerCase());
    const size = byteLength(content);
    if (size > MAX_FILE_BYTES)
      return fail(`File "${checkedPath.value}" is ${size} bytes; the limit is ${MAX_FILE_BYTES} bytes per file.`);
    total += size;
    files.push({ path: checkedPath.value, content });
  }
  if (total > MAX_GADGET_BYTES)
    return fail(`The gadget's files add up to ${total} bytes; the limit is ${MAX_GADGET_BYTES} bytes.`);
  if (!seen.has(MANIFEST_PATH))
    return fail(`A gadget needs a manifest file "${MANIFEST_PATH}" with at least { "name", "entry" }.`);
  return ok(files);
}

/** A host grant: `example.com` or `example.com:8080`, lower case, no scheme, no path, no wildcard. */
export function checkHost(value: unknown): Checked<string> {
  if (typeof value !== "string" || !/^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:[0-9]{1,5})?$/.test(value)) {
    return fail(
      `Fetch grant host ${JSON.stringify(value)} is not valid: write a host name like "api.example.com" or "127.0.0.1:8080" (no scheme, path or wildcard).`,
    );
  }
  return ok(value);
}

function checkGrants(value: unknown): Checked<GadgetGrants> {
  if (value === undefined) return ok({});
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return fail('"grants" must be an object like { "fetch": { "hosts": [] }, "kv": true }.');
  const raw = value as Record<string, unknown>;
  const grants: GadgetGrants = {};
  for (const key of Object.keys(raw)) {
    if (key !== "fetch" && key !== "kv" && key !== "catalog")
      return fail(`Unknown grant "${key}": the grants are "fetch", "kv" and "catalog".`);
  }
  if (raw.fetch !== undefined) {
    const hosts = (raw.fetch as { hosts?: unknown } | null)?.hosts;
    if (!Array.isArray(hosts)) return fail('"grants.fetch" must be { "hosts": ["api.example.com"] }.');
    if (hosts.length > MAX_FETCH_HOSTS)
      return fail(`"grants.fetch.hosts" lists ${hosts.length} hosts; the limit is ${MAX_FETCH_HOSTS}.`);
    const checked: string[] = [];
    for (const host of hosts) {
      const result = checkHost(host);
      if (!result.ok) return result;
      checked.push(result.value);
    }
    grants.fetch = { hosts: checked };
  }
  for (const flag of ["kv", "catalog"] as const) {
    if (raw[flag] === undefined) continue;
    if (typeof raw[flag] !== "boolean") return fail(`"grants.${flag}" must be true or false.`);
    grants[flag] = raw[flag];
  }
  return ok(grants);
}

/** Parses and checks `gadget.json` against the files it names. */
export function checkManifest(files: readonly GadgetFile[]): Checked<GadgetManifest> {
  const file = files.find((f) => f.path === MANIFEST_PATH);
  if (!file) return fail(`A gadget needs a manifest file "${MANIFEST_PATH}".`);
  let raw: unknown;
  try {
    raw = JSON.parse(file.content);
  } catch (error) {
    return fail(`${MANIFEST_PATH} is not valid JSON: ${(error as Error).message}.`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    return fail(`${MANIFEST_PATH} must hold an object like { "name": "echo", "entry": "index.ts" }.`);
  const m = raw as Record<string, unknown>;
  if (typeof m.name !== "string" || m.name.trim() === "" || m.name.length > MAX_NAME_LENGTH) {
    return fail(`${MANIFEST_PATH}: "name" must be a non-empty string of at most ${MAX_NAME_LENGTH} characters.`);
  }
  if (typeof m.entry !== "string" || !isModulePath(m.entry)) {
    return fail(`${MANIFEST_PATH}: "entry" must name the gadget's entry module, like "index.ts".`);
  }
  if (!files.some((f) => f.path === m.entry))
    return fail(`${MANIFEST_PATH}: the entry "${m.entry}" is not one of the gadget's files.`);
  if (
    m.description !== undefined &&
    (typeof m.description !== "string" || m.description.length > MAX_DESCRIPTION_LENGTH)
  ) {
    return fail(`${MANIFEST_PATH}: "description" must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters.`);
  }
  let exampleInput: JsonValue | undefined;
  if (m.exampleInput !== undefined) {
    const checked = checkPayload(m.exampleInput, "exampleInput");
    if (!checked.ok) return fail(`${MANIFEST_PATH}: ${checked.error}`);
    exampleInput = checked.value;
  }
  const grants = checkGrants(m.grants);
  if (!grants.ok) return fail(`${MANIFEST_PATH}: ${grants.error}`);
  return ok({
    name: m.name.trim(),
    entry: m.entry,
    ...(typeof m.description === "string" ? { description: m.description } : {}),
    ...(exampleInput !== undefined ? { exampleInput } : {}),
    grants: grants.value,
  });
}
