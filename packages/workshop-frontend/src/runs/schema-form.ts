/**
 * The run panel's form, generated from a gadget's `inputSchema`: the schema read as a list of fields,
 * each field's text read from the payload, and a field's edit written back as new payload text — so
 * the form and the JSON editor always edit the same payload. An object schema's properties of type
 * string (an `enum` becomes a choice), number or integer, boolean, object (a group of fields) and
 * array of primitives (a comma-separated list) get their own control; any other property is edited
 * as JSON text. An empty field is left out of the payload; its `default`, if any, is what a new
 * payload starts with and what the empty field shows.
 */

import type { JsonSchema, JsonValue } from "@gadgets/workshop-shared";

type JsonObject = { [key: string]: JsonValue };
type Primitive = string | number | boolean | null;

interface FieldBase {
  /** The property's name. */
  key: string;
  /** Property names from the payload's root down to this one. */
  path: readonly string[];
  /** The path as validation messages write it: `$.city`, `$.address.zip`, `$["first name"]`. */
  pointer: string;
  required: boolean;
  description?: string;
  /** The schema's `default`, when it is JSON. */
  defaultValue?: JsonValue;
}

export type FormField =
  | (FieldBase & { kind: "text" })
  | (FieldBase & { kind: "number"; integer: boolean })
  | (FieldBase & { kind: "boolean" })
  | (FieldBase & { kind: "choice"; options: readonly Primitive[] })
  | (FieldBase & { kind: "list"; item: "string" | "number" | "integer" | "boolean" })
  | (FieldBase & { kind: "object"; fields: readonly FormField[] })
  | (FieldBase & { kind: "json" });

/** Nested objects deeper than this are edited as JSON (a schema may nest without end through its own text). */
const MAX_FORM_DEPTH = 8;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const NUMBER = /^-?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const isPrimitive = (value: unknown): value is Primitive =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/** A property of the root's path as validation messages name it. */
export function pointerOf(path: readonly string[]): string {
  return path.reduce((text, key) => (IDENTIFIER.test(key) ? `${text}.${key}` : `${text}[${JSON.stringify(key)}]`), "$");
}

/** Whether a value is JSON all the way down (a schema's `default` could be anything a file holds). */
function isJson(value: unknown, depth = 0): value is JsonValue {
  if (depth > 64) return false;
  if (isPrimitive(value)) return typeof value !== "number" || Number.isFinite(value);
  if (Array.isArray(value)) return value.every((item) => isJson(item, depth + 1));
  return isRecord(value) && Object.values(value).every((item) => isJson(item, depth + 1));
}

/** The object schema's properties, or undefined when it does not describe an object with properties. */
function propertiesOf(schema: unknown): Record<string, unknown> | undefined {
  if (!isRecord(schema)) return undefined;
  if (schema.type !== undefined && schema.type !== "object") return undefined;
  return isRecord(schema.properties) ? schema.properties : undefined;
}

function fieldOf(key: string, schema: unknown, parent: readonly string[], required: boolean, depth: number): FormField {
  const path = [...parent, key];
  const described = isRecord(schema) ? schema : {};
  const base: FieldBase = {
    key,
    path,
    pointer: pointerOf(path),
    required,
    ...(typeof described.description === "string" && described.description.trim()
      ? { description: described.description.trim() }
      : {}),
    ...(described.default !== undefined && isJson(described.default) ? { defaultValue: described.default } : {}),
  };
  const { type, items } = described;
  if (Array.isArray(described.enum) && described.enum.length > 0 && described.enum.every(isPrimitive))
    return { ...base, kind: "choice", options: described.enum };
  if (type === "string") return { ...base, kind: "text" };
  if (type === "number" || type === "integer") return { ...base, kind: "number", integer: type === "integer" };
  if (type === "boolean") return { ...base, kind: "boolean" };
  if (type === "object" && depth < MAX_FORM_DEPTH) {
    const nested = formFieldsAt(described, path, depth + 1);
    if (nested) return { ...base, kind: "object", fields: nested };
  }
  if (type === "array" && isRecord(items) && items.enum === undefined) {
    const item = items.type;
    if (item === "string" || item === "number" || item === "integer" || item === "boolean")
      return { ...base, kind: "list", item };
  }
  return { ...base, kind: "json" };
}

function formFieldsAt(schema: unknown, path: readonly string[], depth: number): FormField[] | undefined {
  const properties = propertiesOf(schema);
  if (!properties) return undefined;
  const required = isRecord(schema) && Array.isArray(schema.required) ? schema.required : [];
  return Object.keys(properties).map((key) => fieldOf(key, properties[key], path, required.includes(key), depth));
}

/** The form for an input schema: its fields, or undefined when the schema is not an object with properties. */
export function formFields(schema: JsonSchema): FormField[] | undefined {
  const fields = formFieldsAt(schema, [], 0);
  return fields && fields.length > 0 ? fields : undefined;
}

/** The payload as the form edits it: an object (empty text is an empty object), or why the form cannot. */
export function formPayload(text: string): { ok: true; value: JsonObject } | { ok: false; reason: string } {
  if (text.trim() === "") return { ok: true, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, reason: "The payload is not valid JSON: fix it in the JSON view to use the form." };
  }
  if (!isRecord(value))
    return { ok: false, reason: "The form edits an object payload, and this payload is not one: edit it as JSON." };
  return { ok: true, value: value as JsonObject };
}

/** The value at a field's path, or undefined when the payload has none there. */
export function valueAt(root: JsonObject, path: readonly string[]): JsonValue | undefined {
  let current: JsonValue | undefined = root;
  for (const key of path) {
    if (!isRecord(current) || !Object.hasOwn(current, key)) return undefined;
    current = current[key];
  }
  return current;
}

/** The root with `value` at `path` (undefined: the property left out); objects on the way are made as needed. */
export function withValue(root: JsonObject, path: readonly string[], value: JsonValue | undefined): JsonObject {
  const [key, ...rest] = path;
  if (key === undefined) return root;
  const next =
    rest.length === 0
      ? value
      : withValue(isRecord(root[key]) && Object.hasOwn(root, key) ? (root[key] as JsonObject) : {}, rest, value);
  // Entries, not spread and assignment: a property named `__proto__` stays an ordinary property.
  const entries = Object.entries(root).filter(([name]) => name !== key || next !== undefined);
  const at = entries.findIndex(([name]) => name === key);
  if (next === undefined) return Object.fromEntries(entries);
  if (at === -1) entries.push([key, next]);
  else entries[at] = [key, next];
  return Object.fromEntries(entries);
}

const primitiveText = (value: JsonValue): string => (typeof value === "string" ? value : JSON.stringify(value));

/** The text a field shows for the payload's value (empty when the payload leaves it out). */
export function fieldText(field: FormField, root: JsonObject): string {
  const value = valueAt(root, field.path);
  if (value === undefined) return "";
  switch (field.kind) {
    case "text":
    case "number":
      return primitiveText(value);
    case "choice":
      return JSON.stringify(value);
    case "list":
      return Array.isArray(value) ? value.map(primitiveText).join(", ") : primitiveText(value);
    default:
      return JSON.stringify(value);
  }
}

/** What a number's or a list item's text is: a number when it reads as one, else the text (validation then says so). */
function numberOrText(text: string): JsonValue {
  return NUMBER.test(text) ? Number(text) : text;
}

function listItem(item: "string" | "number" | "integer" | "boolean", text: string): JsonValue {
  if (item === "string") return text;
  if (item === "boolean") return text === "true" ? true : text === "false" ? false : text;
  return numberOrText(text);
}

/**
 * The value a field's text stands for: undefined for an empty field (left out of the payload). Text
 * that is not what the field expects (letters in a number) is kept as text, so the payload holds what
 * was typed and the schema check names the problem; only a JSON field's text that is not JSON is refused.
 */
export function valueFromText(
  field: FormField,
  text: string,
): { ok: true; value: JsonValue | undefined } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (field.kind === "text") return { ok: true, value: text === "" ? undefined : text };
  if (trimmed === "") return { ok: true, value: undefined };
  switch (field.kind) {
    case "number":
      return { ok: true, value: numberOrText(trimmed) };
    case "list":
      return {
        ok: true,
        value: trimmed
          .split(",")
          .map((part) => part.trim())
          .filter((part) => part !== "")
          .map((part) => listItem(field.item, part)),
      };
    case "boolean":
      return { ok: true, value: trimmed === "true" };
    default:
      try {
        const value: unknown = JSON.parse(trimmed);
        return isJson(value) ? { ok: true, value } : { ok: false, error: "This is not JSON data." };
      } catch (error) {
        return { ok: false, error: `Not valid JSON: ${(error as Error).message}` };
      }
  }
}

/** A field's text as the person typed it, with its value in the payload right after (JSON text; undefined: left out). */
export interface TypedText {
  text: string;
  value: string | undefined;
}

/** The text the person typed and what the payload holds for the field after it: the edit's value, or, when the text was refused, what it held. */
export function typedText(field: FormField, root: JsonObject, text: string): TypedText {
  const parsed = valueFromText(field, text);
  const value = parsed.ok ? parsed.value : valueAt(root, field.path);
  return { text, value: value === undefined ? undefined : JSON.stringify(value) };
}

/**
 * What a field shows: the person's own text as long as the payload still holds what that text left
 * there (so `1.` or `a, ` or half-typed JSON are not rewritten under the cursor); once the payload
 * changed elsewhere (the JSON view, a preset), the payload's text.
 */
export function shownText(field: FormField, root: JsonObject, typed: TypedText | undefined): string {
  if (typed === undefined) return fieldText(field, root);
  const now = valueAt(root, field.path);
  return (now === undefined ? undefined : JSON.stringify(now)) === typed.value ? typed.text : fieldText(field, root);
}

/** The payload text after setting one field (undefined: left out), written as the JSON view shows it. */
export function editPayload(root: JsonObject, field: FormField, value: JsonValue | undefined): string {
  return JSON.stringify(withValue(root, field.path, value), null, 2);
}

/** A new payload from the schema: every property with a `default`, nested objects filled the same way. */
export function defaultPayload(fields: readonly FormField[]): JsonObject {
  let root: JsonObject = {};
  const fill = (list: readonly FormField[]) => {
    for (const field of list) {
      if (field.defaultValue !== undefined) root = withValue(root, field.path, field.defaultValue);
      else if (field.kind === "object") fill(field.fields);
    }
  };
  fill(fields);
  return root;
}

/** The path a validation message is about (`$.city: expected string` → `$.city`), if it starts with one. */
export function messagePointer(message: string): string | undefined {
  const match = /^(\$(?:\.[A-Za-z_$][A-Za-z0-9_$]*…?|\[\d+\]|\["(?:[^"\\]|\\.)*"\])*): /.exec(message);
  return match?.[1];
}

/** Whether a message at `pointer` belongs to the field at `fieldPointer` (itself, or an item of its list). */
function belongsTo(pointer: string, fieldPointer: string): boolean {
  return pointer === fieldPointer || pointer.startsWith(`${fieldPointer}[`) || pointer.startsWith(`${fieldPointer}.`);
}

/** `$.address: missing required property "zip"` is about `$.address.zip`: the field that is empty. */
function subjectPointer(message: string, pointer: string): string {
  const rest = message.slice(pointer.length + 1).trim();
  const missing = /^missing (?:required )?property ("(?:[^"\\]|\\.)*")/.exec(rest);
  if (!missing?.[1]) return pointer;
  try {
    const key: unknown = JSON.parse(missing[1]);
    return typeof key === "string"
      ? `${pointer}${IDENTIFIER.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`}`
      : pointer;
  } catch {
    return pointer;
  }
}

/** The most specific field each message is about (nested fields before their group), by pointer. */
export function placeMessages(
  fields: readonly FormField[],
  messages: readonly string[],
): { byField: Map<string, string[]>; unplaced: string[] } {
  const pointers: string[] = [];
  const walk = (list: readonly FormField[]) => {
    for (const field of list) {
      pointers.push(field.pointer);
      if (field.kind === "object") walk(field.fields);
    }
  };
  walk(fields);
  // Longest first: `$.address.zip` takes its message before `$.address` could.
  pointers.sort((a, b) => b.length - a.length);
  const byField = new Map<string, string[]>();
  const unplaced: string[] = [];
  for (const message of messages) {
    const at = messagePointer(message);
    const pointer = at === undefined ? undefined : subjectPointer(message, at);
    const owner = pointer === undefined ? undefined : pointers.find((candidate) => belongsTo(pointer, candidate));
    if (owner === undefined) unplaced.push(message);
    else byField.set(owner, [...(byField.get(owner) ?? []), message]);
  }
  return { byField, unplaced };
}
