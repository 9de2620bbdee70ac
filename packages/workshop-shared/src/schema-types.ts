/**
 * The TypeScript type a JSON Schema describes, as text: what Code Mode writes into the declaration of
 * `agents` (`weather(input: { city: string }): Promise<{ tempC: number }>`) so that code written
 * against it is typed. Hand-written because the libraries that do this (json-schema-to-typescript and
 * its kin) bring Prettier and resolve `$ref`s from the file system, and do not run in a Worker.
 *
 * Covers what schemas for agent inputs use: object properties (`?` unless required), arrays and tuples
 * (`prefixItems`), the primitive types, `enum`/`const` as literal unions, `anyOf`/`oneOf` as unions,
 * `allOf` as intersections, `additionalProperties` as an index signature, local `$ref`s inlined (so far
 * deep), `description` as a JSDoc comment. What it cannot express is `unknown`. The text is bounded:
 * past `maxLength`, deeper parts become `unknown` until it fits.
 */

import type { JsonSchema } from "./api.ts";

export interface SchemaTypeOptions {
  /** Characters of type text at most (default 4096); deeper parts of the schema become `unknown` until it fits. */
  maxLength?: number;
  /** Put before every line but the first, so the text can sit inside an indented declaration. */
  indent?: string;
}

const DEFAULT_MAX_LENGTH = 4096;
/** How many `$ref`s deep one path inlines: recursive schemas have no end otherwise. */
const MAX_REF_DEPTH = 3;
/** Subschemas one rendering visits at most: `$ref`s inlined many times over cannot multiply the work. */
const MAX_VISITS = 5000;
/** An object type this short, without comments, stays on one line: `{ city: string; days?: number }`. */
const ONE_LINE_CHARS = 60;
/** How deep each try renders, deepest first; each is bounded by `MAX_VISITS`. */
const DEPTHS = [64, 8, 6, 4, 3, 2, 1, 0];

type Node = { [key: string]: unknown };

const isNode = (value: unknown): value is Node => typeof value === "object" && value !== null && !Array.isArray(value);

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

class TooMuch extends Error {}

/** A JSON Pointer (`#/$defs/city`) inside the root schema. */
function resolveRef(root: Node, ref: string): unknown {
  if (ref === "#") return root;
  if (!ref.startsWith("#/")) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split("/")) {
    let key = raw;
    try {
      key = decodeURIComponent(raw);
    } catch {
      return undefined;
    }
    key = key.replaceAll("~1", "/").replaceAll("~0", "~");
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isNode(node) && Object.hasOwn(node, key)) node = node[key];
    else return undefined;
  }
  return node;
}

/** `/** … *\/` for a description, on one line when it fits on one. */
function comment(text: string, indent: string): string {
  const lines = text.replaceAll("*/", "*\\/").trim().split(/\r?\n/);
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((line) => `${indent} * ${line}`.trimEnd()).join("\n")}\n${indent} */\n`;
}

/** A literal type for a JSON value, or undefined when it is not a primitive. */
function literal(value: unknown): string | undefined {
  if (value === null) return "null";
  if (typeof value === "string" || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  return undefined;
}

/** A union of distinct members; `unknown` absorbs the rest, `never` drops out. */
function union(members: string[]): string {
  const distinct = [...new Set(members)].filter((member) => member !== "never");
  if (distinct.includes("unknown")) return "unknown";
  if (distinct.length === 0) return "never";
  return distinct.join(" | ");
}

/** Parentheses for a union or intersection inside an array, another intersection or a union. */
function grouped(type: string): string {
  let depth = 0;
  for (const char of type) {
    if ("{[(<".includes(char)) depth++;
    else if ("}])>".includes(char)) depth--;
    else if (depth === 0 && (char === "|" || char === "&")) return `(${type})`;
  }
  return type;
}

class Renderer {
  visits = 0;
  readonly root: Node;
  readonly maxDepth: number;

  constructor(root: Node, maxDepth: number) {
    this.root = root;
    this.maxDepth = maxDepth;
  }

  render(schema: unknown, depth: number, refs: number, indent: string): string {
    if (++this.visits > MAX_VISITS) throw new TooMuch();
    if (schema === true) return "unknown";
    if (schema === false) return "never";
    if (!isNode(schema) || depth > this.maxDepth) return "unknown";
    const parts: string[] = [];
    if (typeof schema.$ref === "string") {
      const target = refs < MAX_REF_DEPTH ? resolveRef(this.root, schema.$ref) : undefined;
      parts.push(target === undefined ? "unknown" : this.render(target, depth + 1, refs + 1, indent));
    }
    const own = this.ownType(schema, depth, refs, indent);
    if (own !== undefined) parts.push(own);
    for (const key of ["anyOf", "oneOf"]) {
      const list = schema[key];
      if (Array.isArray(list) && list.length > 0)
        parts.push(union(list.map((item) => this.render(item, depth + 1, refs, indent))));
    }
    if (Array.isArray(schema.allOf))
      for (const item of schema.allOf) parts.push(this.render(item, depth + 1, refs, indent));
    const known = parts.filter((part) => part !== "unknown");
    if (known.includes("never")) return "never";
    if (known.length === 0) return "unknown";
    return known.length === 1 ? (known[0] as string) : known.map(grouped).join(" & ");
  }

  /** What the schema's own keywords say (`const`, `enum`, `type` and what goes with it), or undefined when they say nothing. */
  ownType(schema: Node, depth: number, refs: number, indent: string): string | undefined {
    if (schema.const !== undefined) return literal(schema.const) ?? "unknown";
    if (Array.isArray(schema.enum)) {
      const members = schema.enum.map(literal);
      return members.every((member) => member !== undefined) ? union(members as string[]) : "unknown";
    }
    const types = Array.isArray(schema.type) ? schema.type : typeof schema.type === "string" ? [schema.type] : [];
    if (types.length === 0) {
      // No type named: the keywords of objects or arrays say which.
      if (isNode(schema.properties) || isNode(schema.additionalProperties) || Array.isArray(schema.required))
        return this.objectType(schema, depth, refs, indent);
      if (schema.items !== undefined || Array.isArray(schema.prefixItems))
        return this.arrayType(schema, depth, refs, indent);
      return undefined;
    }
    return union(
      types.map((type) => {
        switch (type) {
          case "string":
            return "string";
          case "number":
          case "integer":
            return "number";
          case "boolean":
            return "boolean";
          case "null":
            return "null";
          case "object":
            return this.objectType(schema, depth, refs, indent);
          case "array":
            return this.arrayType(schema, depth, refs, indent);
          default:
            return "unknown";
        }
      }),
    );
  }

  objectType(schema: Node, depth: number, refs: number, indent: string): string {
    const inner = `${indent}  `;
    const properties = isNode(schema.properties) ? schema.properties : {};
    const required = new Set(
      Array.isArray(schema.required) ? schema.required.filter((key) => typeof key === "string") : [],
    );
    const members: { line: string; doc: string; type: string; optional: boolean }[] = [];
    const names = [...Object.keys(properties), ...[...required].filter((key) => !Object.hasOwn(properties, key))];
    for (const name of names) {
      const property = properties[name];
      const type = property === undefined ? "unknown" : this.render(property, depth + 1, refs, inner);
      const optional = !required.has(name);
      const key = IDENTIFIER.test(name) ? name : JSON.stringify(name);
      const description = isNode(property) && typeof property.description === "string" ? property.description : "";
      members.push({
        line: `${key}${optional ? "?" : ""}: ${type};`,
        doc: description ? comment(description, inner) : "",
        type,
        optional,
      });
    }
    const patterns = isNode(schema.patternProperties) ? Object.values(schema.patternProperties) : [];
    // `true` (or nothing) adds no index signature beside properties: extra keys are allowed, and unnamed.
    const extra = [schema.additionalProperties, ...patterns]
      .filter((value) => value !== undefined && value !== false && value !== true)
      .map((value) => this.render(value, depth + 1, refs, inner));
    const open = schema.additionalProperties !== false && members.length === 0 && extra.length === 0;
    if (extra.length > 0 || open) {
      // Every property must fit the index signature's type, so it joins them all.
      const types = [
        ...(open ? ["unknown"] : extra),
        ...members.map((member) => member.type),
        ...(members.some((member) => member.optional) ? ["undefined"] : []),
      ];
      const value = union(types);
      members.push({ line: `[key: string]: ${value};`, doc: "", type: value, optional: false });
    }
    if (members.length === 0) return "{}";
    const flat = `{ ${members
      .map((member) => member.line)
      .join(" ")
      .slice(0, -1)} }`;
    if (members.every((member) => member.doc === "" && !member.line.includes("\n")) && flat.length <= ONE_LINE_CHARS)
      return flat;
    return `{\n${members.map((member) => `${member.doc}${inner}${member.line}`).join("\n")}\n${indent}}`;
  }

  arrayType(schema: Node, depth: number, refs: number, indent: string): string {
    const items = schema.items;
    if (!Array.isArray(schema.prefixItems)) {
      const item = items === undefined ? "unknown" : this.render(items, depth + 1, refs, indent);
      return item === "never" ? "[]" : `${grouped(item)}[]`;
    }
    const minItems = typeof schema.minItems === "number" ? schema.minItems : 0;
    const elements = schema.prefixItems.map((item, i) => {
      const type = this.render(item, depth + 1, refs, indent);
      return i < minItems ? type : `${grouped(type)}?`;
    });
    const rest =
      items === false ? "never" : items === undefined ? "unknown" : this.render(items, depth + 1, refs, indent);
    if (rest !== "never") elements.push(`...${grouped(rest)}[]`);
    return `[${elements.join(", ")}]`;
  }
}

/**
 * The TypeScript type text of a schema: `{ city: string; days?: number }`. Multi-line types are
 * indented by two spaces a level, after `options.indent`; past `options.maxLength` characters, parts
 * are cut to `unknown` from the deepest up.
 */
export function schemaToTypeScript(schema: JsonSchema, options: SchemaTypeOptions = {}): string {
  const maxLength = options.maxLength ?? DEFAULT_MAX_LENGTH;
  const indent = options.indent ?? "";
  for (const maxDepth of DEPTHS) {
    try {
      const text = new Renderer(schema, maxDepth).render(schema, 0, 0, indent);
      if (text.length <= maxLength) return text;
    } catch (error) {
      if (!(error instanceof TooMuch)) throw error;
    }
  }
  return "unknown";
}
