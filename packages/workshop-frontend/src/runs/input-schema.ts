/**
 * A draft's declared `inputSchema`, read from its `gadget.json` as the editor holds it (saved or not),
 * and the run panel's payload checked against it as the Workshop will check it before any code runs.
 */

import { type GadgetFile, type JsonSchema, type JsonValue, MANIFEST_PATH } from "@gadgets/workshop-shared";
import { checkSchemaDocument, validateJson } from "@gadgets/workshop-shared/json-schema";
import { parsePayload } from "./payload.ts";
import { defaultPayload, formFields } from "./schema-form.ts";

export type DeclaredSchema =
  | { status: "none" }
  /** Declared, but not a schema the Workshop accepts: the manifest check says the same. */
  | { status: "invalid"; error: string }
  | { status: "ok"; schema: JsonSchema };

/** The manifest's `inputSchema`, from its text; an unreadable manifest declares none (its own check says why). */
export function declaredInputSchema(files: readonly GadgetFile[]): DeclaredSchema {
  const text = files.find((file) => file.path === MANIFEST_PATH)?.content;
  if (text === undefined) return { status: "none" };
  let manifest: unknown;
  try {
    manifest = JSON.parse(text);
  } catch {
    return { status: "none" };
  }
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest)) return { status: "none" };
  if (!Object.hasOwn(manifest, "inputSchema")) return { status: "none" };
  const checked = checkSchemaDocument((manifest as { inputSchema: unknown }).inputSchema, "inputSchema");
  return checked.ok ? { status: "ok", schema: checked.value } : { status: "invalid", error: checked.error };
}

export type PayloadCheck =
  | { status: "ok"; value: JsonValue }
  /** Not a payload at all (not JSON, too large): it cannot be sent. */
  | { status: "unreadable"; error: string }
  /** A payload the schema refuses: the Workshop would answer `invalid` without running the gadget. */
  | { status: "breaks-schema"; value: JsonValue; errors: string[] };

/** The payload text as the run will send it, and whether it fits the schema (when there is one). */
export function checkPayloadText(text: string, schema: JsonSchema | undefined): PayloadCheck {
  const parsed = parsePayload(text);
  if (!parsed.ok) return { status: "unreadable", error: parsed.error };
  if (!schema) return { status: "ok", value: parsed.value };
  const fits = validateJson(schema, parsed.value);
  return fits.ok
    ? { status: "ok", value: parsed.value }
    : { status: "breaks-schema", value: parsed.value, errors: fits.errors };
}

/** The Run button's warning for a payload the schema refuses, in one line. */
export function schemaProblemText(errors: readonly string[]): string {
  const [first] = errors;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more)` : "";
  return `The payload does not match gadget.json's inputSchema: ${first ?? "it does not match"}${more}. Running sends it anyway; the Workshop answers invalid without running the gadget.`;
}

/** A new payload for a draft with no example: the schema's defaults, when it has an object form with any. */
export function payloadFromDefaults(declared: DeclaredSchema): JsonValue | undefined {
  if (declared.status !== "ok") return undefined;
  const fields = formFields(declared.schema);
  const payload = fields && defaultPayload(fields);
  return payload && Object.keys(payload).length > 0 ? payload : undefined;
}
