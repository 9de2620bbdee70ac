/**
 * JSON Schema (draft 2020-12) for a gadget's `inputSchema` and `outputSchema`: checking a schema a
 * manifest declares (`checkSchemaDocument`) and checking a value against it (`validateJson`), with
 * problems worded for people as JSON paths (`$.city: expected string`).
 *
 * Built on @cfworker/json-schema, which interprets schemas (no code generation, so it runs in a Worker),
 * patched with hooks (`validationHooks`) that this module sets while one of its own checks runs: every
 * subschema applied is counted against MAX_SCHEMA_CHECK_STEPS, `pattern` runs on the linear-time engine
 * of `linear-regex.ts` (never a backtracking RegExp on a caller's text), and a `format` is checked only
 * on strings of at most MAX_FORMAT_CHARS. Outside those checks the library behaves as published.
 */

import { dereference, type OutputUnit, type Schema, validate, validationHooks } from "@cfworker/json-schema";
import type { JsonSchema } from "./api.ts";
import { DRAFT_2020_12, META_SCHEMA_2020_12 } from "./json-schema-meta.ts";
import {
  MAX_FORMAT_CHARS,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_CHECK_STEPS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_ERRORS,
} from "./limits.ts";
import { compileLinearRegex, type LinearRegex } from "./linear-regex.ts";
import type { Checked } from "./schemas/check.ts";
import { byteLength } from "./schemas/json.ts";

export type SchemaField = "inputSchema" | "outputSchema";

export type JsonValidation = { ok: true } | { ok: false; errors: string[] };

// ---------------------------------------------------------------------------------------------
// Work on a shared thread: a budget, linear patterns, bounded formats

/** Thrown by the hooks when a check has done all the work it may; caught by the check that set them. */
class OutOfSteps {
  readonly outOfSteps = true;
}

/** The check running now (checks are synchronous, so there is at most one), or none. */
let steps: { left: number } | undefined;

function spend(cost: number): void {
  if (!steps) return;
  steps.left -= cost;
  if (steps.left < 0) throw new OutOfSteps();
}

/** Work a subschema does on one value besides its own subschemas: its keywords' lists, the value's keys or items. */
const keywordWork = /* @__PURE__ */ new WeakMap<object, number>();

function workOf(schema: Schema, instance: unknown): number {
  let own = keywordWork.get(schema);
  if (own === undefined) {
    own = 1;
    for (const key in schema) {
      const value = schema[key];
      if (Array.isArray(value)) own += value.length;
      else if (typeof value === "object" && value !== null) own += Object.keys(value).length;
    }
    keywordWork.set(schema, own);
  }
  if (typeof instance !== "object" || instance === null) return own;
  if (!Array.isArray(instance)) return own + Object.keys(instance).length;
  // `uniqueItems` compares every pair (both ways); a comparison costs about a quarter of a step.
  return own + instance.length + (schema.uniqueItems === true ? (instance.length * instance.length) / 4 : 0);
}

/** Compiled patterns, shared by every schema of this realm (a pattern compiles the same everywhere). */
const patterns = /* @__PURE__ */ new Map<string, LinearRegex | string>();
const MAX_CACHED_PATTERNS = 512;

/** A pattern on the linear engine, or why it cannot be. */
function linearPattern(source: string): LinearRegex | string {
  const known = patterns.get(source);
  if (known !== undefined) return known;
  const compiled = compileLinearRegex(source);
  const entry = compiled.ok ? compiled.regex : compiled.error;
  if (patterns.size >= MAX_CACHED_PATTERNS) patterns.clear();
  patterns.set(source, entry);
  return entry;
}

/** Formats of draft 2020-12 that the library checks; others (and its own extras, like `url`) are annotations. */
const CHECKED_FORMATS = /* @__PURE__ */ new Set([
  "date-time",
  "date",
  "time",
  "duration",
  "email",
  "hostname",
  "ipv4",
  "ipv6",
  "uri",
  "uri-reference",
  "uri-template",
  "uuid",
  "json-pointer",
  "relative-json-pointer",
  "regex",
]);

let hooksSet = false;

/** Sets the hooks once, on first use (never at import: a bundle that never checks a schema keeps none of this). */
function setHooks(): void {
  if (hooksSet) return;
  hooksSet = true;
  const published = { ...validationHooks };
  validationHooks.enter = (schema, instance) => {
    if (steps) spend(workOf(schema, instance));
  };
  validationHooks.pattern = (source) => {
    if (!steps) return published.pattern(source);
    const regex = linearPattern(source);
    if (typeof regex === "string") throw new Error(`the pattern ${JSON.stringify(source)} cannot be used: ${regex}`);
    return {
      test: (text: string) => {
        spend(regex.cost(text.length));
        return regex.test(text);
      },
    };
  };
  validationHooks.format = (name, value) => {
    if (!steps) return published.format(name, value);
    if (!CHECKED_FORMATS.has(name)) return true;
    if (value.length > MAX_FORMAT_CHARS) return false;
    spend(value.length);
    return published.format(name, value);
  };
}

/** Runs a check under the step budget; the hooks are live only inside it. */
function withinBudget<T>(check: () => T): T | OutOfSteps | Error {
  setHooks();
  steps = { left: MAX_SCHEMA_CHECK_STEPS };
  try {
    return check();
  } catch (error) {
    // A stack overflow (a very long chain of $refs on a deep value) is refused like too much work.
    if (error instanceof OutOfSteps || error instanceof RangeError) return new OutOfSteps();
    return error instanceof Error ? error : new Error(String(error));
  } finally {
    steps = undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Compiled schemas

interface Compiled {
  root: Schema;
  lookup: Record<string, Schema | boolean>;
}

/**
 * A copy of the schema with its `$ref`s resolved. The library marks the objects it resolves (hidden
 * properties), so it gets a copy, never the caller's object; the copy is also safe from later edits.
 */
function compile(schema: JsonSchema): Compiled {
  const root = JSON.parse(JSON.stringify(schema)) as Schema;
  replaceFalse(root);
  return { root, lookup: dereference(root) };
}

/**
 * `{ "not": {} }` for each `false` subschema, which means the same: the library reports a `false`
 * without the location of the keyword that held it, and wording "unexpected property" needs that.
 */
const FALSE_SCHEMAS = /* @__PURE__ */ new WeakSet<object>();

function replaceFalse(node: Node): void {
  const swap = (value: unknown) => {
    if (value !== false) return value;
    const never = { not: {} };
    FALSE_SCHEMAS.add(never);
    return never;
  };
  for (const key of ONE_SCHEMA) if (key in node) node[key] = swap(node[key]);
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (let i = 0; i < list.length; i++) list[i] = swap(list[i]);
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isNode(map)) for (const name of Object.keys(map)) map[name] = swap(map[name]);
  }
  for (const key of ONE_SCHEMA) {
    const value = node[key];
    if (isNode(value)) replaceFalse(value);
  }
  for (const key of SCHEMA_LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const item of list) if (isNode(item)) replaceFalse(item);
  }
  for (const key of SCHEMA_MAPS) {
    const map = node[key];
    if (isNode(map)) for (const item of Object.values(map)) if (isNode(item)) replaceFalse(item);
  }
}

/** Compiled validators by the schema object they were made from: a warm run only validates. */
const compiledSchemas = /* @__PURE__ */ new WeakMap<object, Compiled | Error>();

function compiledFor(schema: JsonSchema): Compiled | Error {
  let compiled = compiledSchemas.get(schema);
  if (compiled === undefined) {
    try {
      compiled = compile(schema);
    } catch (error) {
      compiled = error instanceof Error ? error : new Error(String(error));
    }
    compiledSchemas.set(schema, compiled);
  }
  return compiled;
}

let metaSchema: Compiled | undefined;

// ---------------------------------------------------------------------------------------------
// Walking a schema document

type Node = Record<string, unknown>;

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

/** Keywords whose value is one subschema, a list of them, or a map of names to them (draft 2020-12 and the deprecated ones it keeps). */
const ONE_SCHEMA = [
  "items",
  "additionalItems",
  "contains",
  "additionalProperties",
  "propertyNames",
  "not",
  "if",
  "then",
  "else",
  "unevaluatedItems",
  "unevaluatedProperties",
  "contentSchema",
];
const SCHEMA_LISTS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SCHEMA_MAPS = ["$defs", "definitions", "properties", "patternProperties", "dependentSchemas", "dependencies"];

/** Encodes one JSON Pointer segment. */
const pointerSegment = (key: string) => key.replaceAll("~", "~0").replaceAll("/", "~1");

/** Every subschema that is an object, with its JSON Pointer, parents first. Depth is bounded by the document check. */
function eachSubschema(node: Node, at: string, visit: (node: Node, at: string) => void): void {
  visit(node, at);
  for (const key of ONE_SCHEMA) {
    const value = node[key];
    if (isNode(value)) eachSubschema(value, `${at}/${key}`, visit);
  }
  for (const key of SCHEMA_LISTS) {
    const value = node[key];
    if (Array.isArray(value))
      value.forEach((item, i) => {
        if (isNode(item)) eachSubschema(item, `${at}/${key}/${i}`, visit);
      });
  }
  for (const key of SCHEMA_MAPS) {
    const value = node[key];
    if (isNode(value))
      for (const [name, item] of Object.entries(value))
        if (isNode(item)) eachSubschema(item, `${at}/${key}/${pointerSegment(name)}`, visit);
  }
}

/** The subschemas applied to the same value as this one (not to a part of it): a loop among them never ends. */
function inPlace(node: Node, lookup: Compiled["lookup"]): Node[] {
  const next: unknown[] = [];
  const ref = (node as Schema).__absolute_ref__;
  if (typeof ref === "string") next.push(lookup[ref]);
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    const list = node[key];
    if (Array.isArray(list)) next.push(...list);
  }
  next.push(node.not, node.if, node.then, node.else);
  for (const key of ["dependentSchemas", "dependencies"]) {
    const map = node[key];
    if (isNode(map)) next.push(...Object.values(map));
  }
  return next.filter(isNode);
}

/** The pointer of a subschema that leads back to itself through in-place subschemas, or undefined. */
function findLoop(nodes: Map<Node, string>, lookup: Compiled["lookup"]): string | undefined {
  const state = new Map<Node, "open" | "done">();
  for (const start of nodes.keys()) {
    if (state.has(start)) continue;
    // Iterative: a chain of $refs may be long, and this runs on the Worker's thread.
    const stack: { node: Node; next: Node[] }[] = [{ node: start, next: inPlace(start, lookup) }];
    state.set(start, "open");
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as { node: Node; next: Node[] };
      const child = top.next.pop();
      if (child === undefined) {
        state.set(top.node, "done");
        stack.pop();
      } else if (state.get(child) === "open") return nodes.get(top.node) ?? "#";
      else if (!state.has(child)) {
        state.set(child, "open");
        stack.push({ node: child, next: inPlace(child, lookup) });
      }
    }
  }
  return undefined;
}

/** What keeps a schema from being used as it is, beyond the meta-schema: refs, loops, patterns. */
function usageProblem(compiled: Compiled): string | undefined {
  const nodes = new Map<Node, string>();
  let problem: string | undefined;
  eachSubschema(compiled.root, "#", (node, at) => {
    nodes.set(node, at);
    if (problem) return;
    const ref = node.$ref;
    if (typeof ref === "string") {
      if (!ref.startsWith("#"))
        problem = `the $ref ${JSON.stringify(ref)} at ${at} is not local; only refs inside the schema ("#/$defs/…") are followed`;
      else if (compiled.lookup[(node as Schema).__absolute_ref__ ?? ""] === undefined)
        problem = `the $ref ${JSON.stringify(ref)} at ${at} does not point to a schema in this document`;
    }
    for (const keyword of ["$dynamicRef", "$recursiveRef"])
      if (!problem && node[keyword] !== undefined)
        problem = `${keyword} (at ${at}) is not supported; use $ref to an entry of "$defs"`;
    const sources = [
      ...(typeof node.pattern === "string" ? [node.pattern] : []),
      ...(isNode(node.patternProperties) ? Object.keys(node.patternProperties) : []),
    ];
    for (const source of sources) {
      const regex = problem ? undefined : linearPattern(source);
      if (typeof regex === "string")
        problem = `the pattern ${JSON.stringify(source)} at ${at} cannot be used: ${regex} (patterns may use literals, classes, groups, | and repeats; no lookaround or backreferences)`;
    }
  });
  if (problem) return problem;
  const loop = findLoop(nodes, compiled.lookup);
  return loop
    ? `the subschema at ${loop} leads back to itself (through $ref, allOf, anyOf, oneOf, not or if) without looking inside the value, so checking it would never end`
    : undefined;
}

/** How deep a value nests, counted up to one past `max` (the walk stops there). */
function nestingOver(value: unknown, max: number, depth = 0): boolean {
  if (typeof value !== "object" || value === null) return false;
  if (depth >= max) return true;
  for (const item of Array.isArray(value) ? value : Object.values(value))
    if (nestingOver(item, max, depth + 1)) return true;
  return false;
}

/**
 * A manifest's `inputSchema` or `outputSchema`: a JSON object within MAX_SCHEMA_BYTES and
 * MAX_SCHEMA_DEPTH, valid against the draft 2020-12 meta-schema, whose `$ref`s stay inside it, and
 * which this Workshop can check values against in bounded work. Messages name the field.
 */
export function checkSchemaDocument(schema: unknown, field: SchemaField): Checked<JsonSchema> {
  const refuse = (why: string): Checked<JsonSchema> => ({
    ok: false,
    error: `"${field}" is not a valid JSON Schema: ${why.endsWith(".") ? why.slice(0, -1) : why}.`,
  });
  if (!isNode(schema))
    return refuse(`it must be an object like { "type": "object", "properties": { … } }, not ${describeKind(schema)}`);
  if (nestingOver(schema, MAX_SCHEMA_DEPTH + 1)) return refuse(`it nests more than ${MAX_SCHEMA_DEPTH} levels deep`);
  let text: string;
  try {
    text = JSON.stringify(schema);
  } catch {
    return refuse("it is not plain JSON data");
  }
  const size = byteLength(text);
  if (size > MAX_SCHEMA_BYTES) return refuse(`it is ${size} bytes as JSON; the limit is ${MAX_SCHEMA_BYTES} bytes`);
  const declared = schema.$schema;
  if (declared !== undefined && declared !== DRAFT_2020_12 && declared !== `${DRAFT_2020_12}#`)
    return refuse(`only draft 2020-12 is supported: leave "$schema" out or set it to "${DRAFT_2020_12}"`);
  const document = JSON.parse(text) as unknown;
  metaSchema ??= compile(META_SCHEMA_2020_12);
  const meta = metaSchema;
  const checked = withinBudget(() => validate(document, meta.root, "2020-12", meta.lookup, false));
  if (checked instanceof OutOfSteps) return refuse("it is too large or too complex to check");
  if (checked instanceof Error) return refuse(checked.message);
  if (!checked.valid)
    return refuse(describeUnits(checked.errors, document, field, meta)[0] ?? "it breaks the meta-schema");
  let compiled: Compiled;
  try {
    compiled = compile(schema);
  } catch (error) {
    return refuse((error as Error).message.split("\n")[0] ?? "it cannot be compiled");
  }
  const problem = usageProblem(compiled);
  if (problem) return refuse(problem);
  compiledSchemas.set(schema, compiled);
  return { ok: true, value: schema };
}

/**
 * Whether a JSON value fits the schema; if not, what is wrong, worded for people (`$.city: expected
 * string`), deepest first, at most MAX_SCHEMA_ERRORS. The schema is compiled once per schema object.
 */
export function validateJson(schema: JsonSchema, value: unknown): JsonValidation {
  const compiled = compiledFor(schema);
  if (compiled instanceof Error) return { ok: false, errors: [`$: the schema cannot be used: ${compiled.message}`] };
  const instance = value === undefined ? null : value;
  const result = withinBudget(() => validate(instance, compiled.root, "2020-12", compiled.lookup, false));
  if (result instanceof OutOfSteps)
    return {
      ok: false,
      errors: [
        `$: checking this value against the schema takes more than ${MAX_SCHEMA_CHECK_STEPS} steps; send a smaller value or simplify the schema`,
      ],
    };
  if (result instanceof Error)
    return { ok: false, errors: [`$: the value could not be checked against the schema: ${result.message}`] };
  if (result.valid) return { ok: true };
  const errors = describeUnits(result.errors, instance, "$", compiled);
  return { ok: false, errors: errors.length > 0 ? errors : ["$: does not match the schema"] };
}

/**
 * The message of a run whose payload or result breaks the gadget's schema, the same wherever it is
 * shown: `The input does not match the gadget's inputSchema: $.city: expected string`.
 */
export function schemaMismatch(field: SchemaField, errors: readonly string[]): string {
  const what = field === "inputSchema" ? "input" : "result";
  return `The ${what} does not match the gadget's ${field}: ${errors.join("; ")}`;
}

// ---------------------------------------------------------------------------------------------
// Wording the library's output units

function describeKind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return `a ${typeof value}`;
}

/** A value as a person reads it in a message: JSON, cut short. */
function preview(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

function listOf(values: readonly unknown[]): string {
  const shown = values.slice(0, 10).map(preview).join(", ");
  return values.length > 10 ? `${shown}, …` : shown;
}

/** JSON Pointer segments of a location like `#/a/0/b%20c`. */
function segments(location: string): string[] {
  const body = location.startsWith("#") ? location.slice(1) : location;
  if (body === "") return [];
  return body
    .slice(1)
    .split("/")
    .map((segment) => {
      let decoded = segment;
      try {
        decoded = decodeURIComponent(segment);
      } catch {
        // Left as it is: a key the library encoded in a way it cannot be read back.
      }
      return decoded.replaceAll("~1", "/").replaceAll("~0", "~");
    });
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
const INDEX = /^(0|[1-9][0-9]*)$/;

/** `$.items[2].name`, `$["two words"]`: the path to the value at `location`, walked through the value itself. */
function jsonPath(location: string, root: unknown, label: string): string {
  let path = label;
  let value: unknown = root;
  for (const key of segments(location)) {
    if (Array.isArray(value) && INDEX.test(key)) {
      path += `[${key}]`;
      value = value[Number(key)];
      continue;
    }
    const shown = key.length > 64 ? `${key.slice(0, 63)}…` : key;
    path += IDENTIFIER.test(key) ? `.${shown}` : `[${JSON.stringify(shown)}]`;
    value = isNode(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  return path;
}

function valueAt(location: string, root: unknown): unknown {
  let value: unknown = root;
  for (const key of segments(location)) {
    if (Array.isArray(value)) value = value[Number(key)];
    else value = isNode(value) && Object.hasOwn(value, key) ? value[key] : undefined;
  }
  return value;
}

/** The subschema holding a keyword, from the keyword's location (which runs through `$ref`s as applied). */
function keywordHolder(location: string, compiled: Compiled | undefined): Node | undefined {
  if (!compiled) return undefined;
  const path = segments(location);
  path.pop();
  let node: unknown = compiled.root;
  for (const key of path) {
    if (Array.isArray(node)) node = node[Number(key)];
    else if (!isNode(node)) return undefined;
    else node = key === "$ref" ? compiled.lookup[(node as Schema).__absolute_ref__ ?? ""] : node[key];
  }
  return isNode(node) ? node : undefined;
}

/** The text between a known start and end of one of the library's messages. */
function between(text: string, start: string, end: string): string | undefined {
  return text.startsWith(start) && text.endsWith(end) ? text.slice(start.length, text.length - end.length) : undefined;
}

/** Units that only say a subschema below them failed: the units below them say what. */
const APPLICATORS = /* @__PURE__ */ new Set([
  "$ref",
  "$recursiveRef",
  "properties",
  "patternProperties",
  "additionalProperties",
  "unevaluatedProperties",
  "items",
  "prefixItems",
  "additionalItems",
  "unevaluatedItems",
  "allOf",
  "if",
  "dependentSchemas",
]);
const PROPERTY_KEYWORDS = /* @__PURE__ */ new Set(["additionalProperties", "unevaluatedProperties", "propertyNames"]);
const PROPERTY_MAPS = /* @__PURE__ */ new Set(["properties", "patternProperties"]);
const ITEM_KEYWORDS = /* @__PURE__ */ new Set(["items", "additionalItems", "unevaluatedItems", "contains"]);

/** Units read per check: enough to find the deepest few; a huge value that fails everywhere costs no more. */
const MAX_UNITS_READ = 1000;

/** Where a `false` subschema sat, from its location (`…/additionalProperties/not`): what its failure means. */
function falseMeaning(location: string): string {
  const path = segments(location);
  const holder = path[path.length - 2];
  const grand = path[path.length - 3];
  if ((holder && PROPERTY_KEYWORDS.has(holder)) || (grand && PROPERTY_MAPS.has(grand))) return "unexpected property";
  if ((holder && ITEM_KEYWORDS.has(holder)) || grand === "prefixItems") return "unexpected item";
  return "no value is allowed here";
}

function count(amount: unknown, one: string, many: string): string {
  return `${preview(amount)} ${amount === 1 ? one : many}`;
}

/** What one assertion expected, as a phrase (`expected at most 7`); undefined for units that explain nothing themselves. */
function expectation(unit: OutputUnit, holder: Node | undefined, value: unknown): string | undefined {
  const rule = holder?.[unit.keyword];
  switch (unit.keyword) {
    case "type": {
      const types = Array.isArray(rule) ? rule : typeof rule === "string" ? [rule] : undefined;
      return types ? `expected ${types.join(" or ")}` : unit.error;
    }
    case "const":
      return holder ? `expected ${preview(rule)}` : unit.error;
    case "enum":
      return Array.isArray(rule) ? `expected one of ${listOf(rule)}` : unit.error;
    case "required": {
      const key = between(unit.error, 'Instance does not have required property "', '".');
      return key === undefined ? unit.error : `missing required property ${JSON.stringify(key)}`;
    }
    case "dependentRequired":
    case "dependencies": {
      const pair = between(unit.error, 'Instance has "', '".');
      const split = pair?.lastIndexOf('" but does not have "') ?? -1;
      if (pair === undefined || split < 0) return undefined;
      const has = pair.slice(0, split);
      const missing = pair.slice(split + '" but does not have "'.length);
      return `missing property ${JSON.stringify(missing)} (required when ${JSON.stringify(has)} is present)`;
    }
    case "minimum":
      return `expected at least ${preview(rule)}`;
    case "maximum":
      return `expected at most ${preview(rule)}`;
    case "exclusiveMinimum":
      return `expected more than ${preview(rule)}`;
    case "exclusiveMaximum":
      return `expected less than ${preview(rule)}`;
    case "multipleOf":
      return `expected a multiple of ${preview(rule)}`;
    case "minLength":
      return `expected at least ${count(rule, "character", "characters")}`;
    case "maxLength":
      return `expected at most ${count(rule, "character", "characters")}`;
    case "minItems":
      return `expected at least ${count(rule, "item", "items")}`;
    case "maxItems":
      return `expected at most ${count(rule, "item", "items")}`;
    case "minProperties":
      return `expected at least ${count(rule, "property", "properties")}`;
    case "maxProperties":
      return `expected at most ${count(rule, "property", "properties")}`;
    case "pattern":
      return `expected a string matching the pattern ${preview(rule)}`;
    case "format": {
      const name = JSON.stringify(typeof rule === "string" ? rule : "format");
      return typeof value === "string" && value.length > MAX_FORMAT_CHARS
        ? `expected ${name} text of at most ${MAX_FORMAT_CHARS} characters`
        : `expected format ${name}`;
    }
    case "uniqueItems": {
      const pair = between(unit.error, "Duplicate items at indexes ", ".");
      return `expected unique items${pair ? `; items ${pair} are equal` : ""}`;
    }
    case "contains":
      return 'expected at least one item matching "contains"';
    case "minContains":
      return `expected at least ${count(holder?.minContains, "item", "items")} matching "contains"`;
    case "maxContains":
      return `expected at most ${count(holder?.maxContains, "item", "items")} matching "contains"`;
    case "not":
      return holder && FALSE_SCHEMAS.has(holder)
        ? falseMeaning(unit.keywordLocation)
        : 'expected not to match the schema in "not"';
    case "propertyNames": {
      const key = between(unit.error, 'Property name "', '" does not match schema.');
      return `property name ${JSON.stringify(key ?? "")} is not allowed by "propertyNames"`;
    }
    default:
      return APPLICATORS.has(unit.keyword) ? undefined : unit.error;
  }
}

/** A unit's keyword location without its last segment: the subschema it belongs to. */
const parentLocation = (location: string) => location.slice(0, Math.max(0, location.lastIndexOf("/")));

type Found = { path: string; depth: number; phrase: string; types?: string[]; values?: unknown[] };

/** `type`, `const` and `enum` alternatives at one path (an anyOf of them) read as one expectation. */
function mergeAlternatives(found: Found[]): Found[] {
  const merged: Found[] = [];
  for (const item of found) {
    const same = merged.find(
      (other) => other.path === item.path && Boolean((item.types && other.types) || (item.values && other.values)),
    );
    if (!same) merged.push({ ...item });
    else if (item.types && same.types) {
      same.types = [...new Set([...same.types, ...item.types])];
      same.phrase = `expected ${same.types.join(" or ")}`;
    } else if (item.values && same.values) {
      const values = [...same.values];
      for (const value of item.values)
        if (!values.some((known) => preview(known) === preview(value))) values.push(value);
      same.values = values;
      same.phrase = values.length === 1 ? `expected ${preview(values[0])}` : `expected one of ${listOf(values)}`;
    }
  }
  return merged;
}

/**
 * People's sentences for the library's output units: applicator units dropped (what failed below them
 * says it), what a summary stands for (`contains`, `propertyNames`, a `oneOf` matched twice) left to
 * the summary, alternatives merged (`expected string or null`), deepest first, each once, at most
 * MAX_SCHEMA_ERRORS.
 */
function describeUnits(all: OutputUnit[], root: unknown, label: string, compiled: Compiled): string[] {
  const units = all.slice(0, MAX_UNITS_READ);
  // Keyword locations whose units a summary stands for (its subschema's attempts).
  const summarized = new Set<string>();
  for (const unit of units) {
    if (unit.keyword === "contains" || unit.keyword === "minContains" || unit.keyword === "maxContains")
      summarized.add(`${parentLocation(unit.keywordLocation)}/contains/`);
    if (unit.keyword === "propertyNames") summarized.add(`${unit.keywordLocation}/`);
    if (unit.keyword === "oneOf" && !unit.error.includes("(0 matches)")) summarized.add(`${unit.keywordLocation}/`);
  }
  const isSummarized = (location: string) => {
    for (const prefix of summarized) if (location.startsWith(prefix)) return true;
    return false;
  };
  // anyOf and oneOf units whose branches said something: those explain them.
  const choices = units.filter((unit) => unit.keyword === "anyOf" || unit.keyword === "oneOf");
  const explained = new Set<string>();
  for (const unit of units)
    for (const choice of choices)
      if (unit.keywordLocation.startsWith(`${choice.keywordLocation}/`)) explained.add(choice.keywordLocation);
  // Of a choice's branches, those of the wrong type say least when another branch had the type right.
  const offTrack: string[] = [];
  for (const choice of choices) {
    const wrongType = new Map<string, boolean>();
    for (const unit of units) {
      if (!unit.keywordLocation.startsWith(`${choice.keywordLocation}/`)) continue;
      const index = unit.keywordLocation.slice(choice.keywordLocation.length + 1).split("/")[0];
      const branch = `${choice.keywordLocation}/${index}/`;
      const wrong = unit.keyword === "type" && unit.instanceLocation === choice.instanceLocation;
      wrongType.set(branch, (wrongType.get(branch) ?? false) || wrong);
    }
    const verdicts = [...wrongType.values()];
    if (verdicts.includes(true) && verdicts.includes(false))
      for (const [branch, wrong] of wrongType) if (wrong) offTrack.push(branch);
  }
  const found: Found[] = [];
  for (const unit of units) {
    if (isSummarized(unit.keywordLocation)) continue;
    if (offTrack.some((branch) => unit.keywordLocation.startsWith(branch))) continue;
    const path = jsonPath(unit.instanceLocation, root, label);
    const depth = segments(unit.instanceLocation).length;
    if (unit.keyword === "anyOf" || unit.keyword === "oneOf") {
      const matches = Number(between(unit.error.slice(unit.error.lastIndexOf("(")), "(", " matches).") ?? 0);
      if (unit.keyword === "oneOf" && matches > 1)
        found.push({ path, depth, phrase: `expected exactly one of the "oneOf" schemas to match; ${matches} did` });
      else if (!explained.has(unit.keywordLocation))
        found.push({ path, depth, phrase: `expected a value matching one of the "${unit.keyword}" schemas` });
      continue;
    }
    const holder = keywordHolder(unit.keywordLocation, compiled);
    const phrase = expectation(unit, holder, valueAt(unit.instanceLocation, root));
    if (phrase === undefined) continue;
    const rule = holder?.[unit.keyword];
    const item: Found = { path, depth, phrase };
    if (unit.keyword === "type" && (typeof rule === "string" || Array.isArray(rule)))
      item.types = [rule].flat().map(String);
    if (unit.keyword === "const" && holder) item.values = [rule];
    if (unit.keyword === "enum" && Array.isArray(rule)) item.values = rule;
    found.push(item);
  }
  const sentences = mergeAlternatives(found)
    .map((item, order) => ({ ...item, order }))
    .sort((a, b) => b.depth - a.depth || a.order - b.order)
    .map((item) => `${item.path}: ${item.phrase}`);
  return [...new Set(sentences)].slice(0, MAX_SCHEMA_ERRORS);
}
