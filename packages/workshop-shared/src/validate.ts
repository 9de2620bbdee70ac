/**
 * Run-time checks for everything that arrives over the wire, each a wire schema (`schemas/`) run to a
 * tagged result whose error text says what was wrong, the details, and how to fix it. Shared so the IDE
 * and the command line can show the same message before a request is ever sent.
 */

import { type GadgetFile, type GadgetManifest, type JsonValue, MANIFEST_PATH } from "./api.ts";
import { type Checked, check } from "./schemas/check.ts";
import { idSchema, RunTimeoutMsSchema, timeoutMsSchema } from "./schemas/calls.ts";
import { GadgetFilesSchema, GadgetManifestSchema, GadgetPathSchema, HostSchema } from "./schemas/gadget.ts";
import { jsonValue, PayloadSchema } from "./schemas/json.ts";

export type { Checked } from "./schemas/check.ts";
export { DATA_EXTENSIONS, isModulePath, MODULE_EXTENSIONS } from "./schemas/gadget.ts";
export { byteLength } from "./schemas/json.ts";

/** Ids are base64url strings we generated; anything else is refused before any lookup. */
export function checkId(value: unknown, what: string): Checked<string> {
  return check(idSchema(what), value);
}

/** A payload must be plain JSON data within MAX_PAYLOAD_BYTES; `what` names it in the message. */
export function checkPayload(value: unknown, what = "payload"): Checked<JsonValue> {
  return check(what === "payload" ? PayloadSchema : jsonValue(what), value);
}

/** A run's wall-clock limit, whether asked for one run or set for a workspace. */
export function checkTimeoutMs(value: unknown, name: string): Checked<number> {
  return check(name === "timeoutMs" ? RunTimeoutMsSchema : timeoutMsSchema(name), value);
}

/** A relative path made of plain segments: no `..`, no leading `/`, no hidden files, known extension. */
export function checkPath(value: unknown): Checked<string> {
  return check(GadgetPathSchema, value);
}

/** The files of a gadget: valid paths, no duplicates, within the size limits, with a manifest. */
export function checkFiles(value: unknown): Checked<GadgetFile[]> {
  return check(GadgetFilesSchema, value);
}

/** A host grant: `example.com` or `example.com:8080`, lower case, no scheme, no path, no wildcard. */
export function checkHost(value: unknown): Checked<string> {
  return check(HostSchema, value);
}

/** Parses and checks `gadget.json` against the files it names. */
export function checkManifest(files: readonly GadgetFile[]): Checked<GadgetManifest> {
  const file = files.find((f) => f.path === MANIFEST_PATH);
  if (!file) return { ok: false, error: `A gadget needs a manifest file "${MANIFEST_PATH}".` };
  let raw: unknown;
  try {
    raw = JSON.parse(file.content);
  } catch (error) {
    return { ok: false, error: `${MANIFEST_PATH} is not valid JSON: ${(error as Error).message}.` };
  }
  const manifest = check(GadgetManifestSchema, raw, `${MANIFEST_PATH}: `);
  if (manifest.ok && !files.some((f) => f.path === manifest.value.entry))
    return {
      ok: false,
      error: `${MANIFEST_PATH}: the entry "${manifest.value.entry}" is not one of the gadget's files.`,
    };
  return manifest;
}
