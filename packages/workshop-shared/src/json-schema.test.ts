import { describe, expect, it } from "vitest";
import type { JsonSchema } from "./api.ts";
import { checkSchemaDocument, schemaMismatch, validateJson } from "./json-schema.ts";
import {
  MAX_FORMAT_CHARS,
  MAX_SCHEMA_BYTES,
  MAX_SCHEMA_CHECK_STEPS,
  MAX_SCHEMA_DEPTH,
  MAX_SCHEMA_ERRORS,
} from "./limits.ts";

const weather: JsonSchema = {
  type: "object",
  required: ["city"],
  additionalProperties: false,
  properties: {
    city: { type: "string", minLength: 2, description: "Where" },
    days: { type: "integer", minimum: 1, maximum: 7 },
    unit: { enum: ["c", "f"] },
    tags: { type: "array", items: { type: "string" }, uniqueItems: true },
    when: { anyOf: [{ type: "string", format: "date" }, { type: "null" }] },
  },
};

function refusal(schema: unknown, field: "inputSchema" | "outputSchema" = "inputSchema"): string {
  const checked = checkSchemaDocument(schema, field);
  if (checked.ok) throw new Error("expected a refusal");
  return checked.error;
}

/** `{ "a": { "a": … } }` with `levels` objects in all. */
function nested(levels: number): JsonSchema {
  let schema: JsonSchema = {};
  for (let i = 1; i < levels; i++) schema = { not: schema };
  return schema;
}

describe("checkSchemaDocument", () => {
  it("accepts a draft 2020-12 schema and gives back the same object", () => {
    const checked = checkSchemaDocument(weather, "inputSchema");
    expect(checked).toEqual({ ok: true, value: weather });
    expect(checked.ok && checked.value).toBe(weather);
    expect(checkSchemaDocument({ $schema: "https://json-schema.org/draft/2020-12/schema" }, "outputSchema").ok).toBe(
      true,
    );
  });

  it.each([
    [[], "not an array"],
    [null, "not null"],
    ["string", "not a string"],
    [true, "not a boolean"],
  ])("refuses %j, which is not an object", (schema, what) => {
    expect(refusal(schema)).toBe(
      `"inputSchema" is not a valid JSON Schema: it must be an object like { "type": "object", "properties": { … } }, ${what}.`,
    );
  });

  it("names the field and the keyword that breaks the meta-schema", () => {
    expect(refusal({ type: "strng" }, "outputSchema")).toBe(
      '"outputSchema" is not a valid JSON Schema: outputSchema.type: expected one of "array", "boolean", "integer", "null", "number", "object", "string".',
    );
    expect(refusal({ properties: { city: { minLength: -1 } } })).toBe(
      '"inputSchema" is not a valid JSON Schema: inputSchema.properties.city.minLength: expected at least 0.',
    );
    expect(refusal({ required: "city" })).toBe(
      '"inputSchema" is not a valid JSON Schema: inputSchema.required: expected array.',
    );
    expect(refusal({ items: [{ type: "string" }] })).toBe(
      '"inputSchema" is not a valid JSON Schema: inputSchema.items: expected object or boolean.',
    );
    expect(refusal({ pattern: "(unclosed" })).toBe(
      '"inputSchema" is not a valid JSON Schema: inputSchema.pattern: expected format "regex".',
    );
  });

  it("refuses other drafts", () => {
    expect(refusal({ $schema: "http://json-schema.org/draft-07/schema#" })).toBe(
      '"inputSchema" is not a valid JSON Schema: only draft 2020-12 is supported: leave "$schema" out or set it to "https://json-schema.org/draft/2020-12/schema".',
    );
  });

  it("follows only local refs, and only to schemas that exist", () => {
    expect(
      checkSchemaDocument(
        { $defs: { city: { type: "string" } }, properties: { a: { $ref: "#/$defs/city" } } },
        "inputSchema",
      ).ok,
    ).toBe(true);
    expect(refusal({ properties: { a: { $ref: "https://example.com/city.json" } } })).toBe(
      '"inputSchema" is not a valid JSON Schema: the $ref "https://example.com/city.json" at #/properties/a is not local; only refs inside the schema ("#/$defs/…") are followed.',
    );
    expect(refusal({ $ref: "#/$defs/missing" })).toBe(
      '"inputSchema" is not a valid JSON Schema: the $ref "#/$defs/missing" at # does not point to a schema in this document.',
    );
    expect(refusal({ $dynamicRef: "#meta" })).toContain("$dynamicRef (at #) is not supported");
  });

  it("refuses refs that loop without looking inside the value, and keeps those that do", () => {
    expect(
      refusal({
        $defs: { a: { $ref: "#/$defs/b" }, b: { anyOf: [{ type: "string" }, { $ref: "#/$defs/a" }] } },
        $ref: "#/$defs/a",
      }),
    ).toContain("leads back to itself");
    const tree = { type: "object", properties: { children: { type: "array", items: { $ref: "#" } } } };
    expect(checkSchemaDocument(tree, "inputSchema").ok).toBe(true);
    expect(validateJson(tree, { children: [{ children: [] }, { children: 5 }] })).toEqual({
      ok: false,
      errors: ["$.children[1].children: expected array"],
    });
  });

  it("refuses patterns the linear-time engine cannot run", () => {
    expect(refusal({ pattern: "(?=a)b" })).toContain('the pattern "(?=a)b" at # cannot be used: lookaround');
    expect(refusal({ patternProperties: { "^(a)\\1$": {} } })).toContain("cannot be used");
    expect(checkSchemaDocument({ pattern: "^[a-z]{2,5}(-[a-z]+)*$" }, "inputSchema").ok).toBe(true);
  });

  it(`allows ${MAX_SCHEMA_DEPTH} levels of nesting and refuses one more`, () => {
    // `nested(n)` holds n objects: the innermost sits inside n - 1 of them.
    expect(checkSchemaDocument(nested(MAX_SCHEMA_DEPTH + 1), "inputSchema").ok).toBe(true);
    expect(refusal(nested(MAX_SCHEMA_DEPTH + 2))).toBe(
      `"inputSchema" is not a valid JSON Schema: it nests more than ${MAX_SCHEMA_DEPTH} levels deep.`,
    );
  });

  it(`allows ${MAX_SCHEMA_BYTES} bytes and refuses one more`, () => {
    const sized = (bytes: number) => {
      const schema = { description: "" };
      schema.description = "x".repeat(bytes - JSON.stringify(schema).length);
      return schema;
    };
    expect(checkSchemaDocument(sized(MAX_SCHEMA_BYTES), "inputSchema").ok).toBe(true);
    expect(refusal(sized(MAX_SCHEMA_BYTES + 1))).toBe(
      `"inputSchema" is not a valid JSON Schema: it is ${MAX_SCHEMA_BYTES + 1} bytes as JSON; the limit is ${MAX_SCHEMA_BYTES} bytes.`,
    );
  });
});

describe("validateJson", () => {
  it("accepts what fits", () => {
    expect(validateJson(weather, { city: "Paris", days: 3, unit: "c", tags: ["a", "b"], when: null })).toEqual({
      ok: true,
    });
    expect(validateJson(weather, { city: "Paris", when: "2026-02-03" })).toEqual({ ok: true });
  });

  it("says where and what, as JSON paths", () => {
    expect(validateJson(weather, { city: 5 })).toEqual({ ok: false, errors: ["$.city: expected string"] });
    expect(validateJson(weather, {})).toEqual({ ok: false, errors: ['$: missing required property "city"'] });
    expect(validateJson(weather, { city: "Paris", days: 9 })).toEqual({
      ok: false,
      errors: ["$.days: expected at most 7"],
    });
    expect(validateJson(weather, { city: "Paris", unit: "k" })).toEqual({
      ok: false,
      errors: ['$.unit: expected one of "c", "f"'],
    });
    expect(validateJson(weather, { city: "Paris", extra: 1 })).toEqual({
      ok: false,
      errors: ["$.extra: unexpected property"],
    });
    expect(validateJson(weather, { city: "Paris", when: 5 })).toEqual({
      ok: false,
      errors: ["$.when: expected string or null"],
    });
    expect(validateJson(weather, { city: "Paris", when: "soon" })).toEqual({
      ok: false,
      errors: ['$.when: expected format "date"'],
    });
    expect(validateJson(weather, { city: "Paris", tags: ["a", 2, "a"] })).toEqual({
      ok: false,
      errors: ["$.tags[1]: expected string", "$.tags: expected unique items; items 0 and 2 are equal"],
    });
    expect(validateJson(weather, [])).toEqual({ ok: false, errors: ["$: expected object"] });
  });

  it("quotes keys that are not identifiers and words the other keywords", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        "two words": { type: "number", exclusiveMinimum: 0, multipleOf: 5 },
        list: { type: "array", minItems: 1, contains: { const: 3 } },
        code: { type: "string", pattern: "^[A-Z]{3}$", maxLength: 3 },
        pick: { oneOf: [{ type: "number" }, { type: "integer" }] },
        no: { not: { type: "null" } },
        kind: { const: "a" },
      },
      propertyNames: { maxLength: 10 },
      dependentRequired: { code: ["kind"] },
    };
    expect(validateJson(schema, { "two words": -3 }).ok).toBe(false);
    expect(validateJson(schema, { "two words": -3 })).toEqual({
      ok: false,
      errors: ['$["two words"]: expected more than 0', '$["two words"]: expected a multiple of 5'],
    });
    expect(validateJson(schema, { list: [1, 2] })).toEqual({
      ok: false,
      errors: ['$.list: expected at least one item matching "contains"'],
    });
    expect(validateJson(schema, { code: "abcd", kind: "a" })).toEqual({
      ok: false,
      errors: ["$.code: expected at most 3 characters", '$.code: expected a string matching the pattern "^[A-Z]{3}$"'],
    });
    expect(validateJson(schema, { pick: 3 })).toEqual({
      ok: false,
      errors: ['$.pick: expected exactly one of the "oneOf" schemas to match; 2 did'],
    });
    expect(validateJson(schema, { no: null, kind: "b" })).toEqual({
      ok: false,
      errors: ['$.no: expected not to match the schema in "not"', '$.kind: expected "a"'],
    });
    expect(validateJson(schema, { averyveryverylongname: 1, code: "ABC" })).toEqual({
      ok: false,
      errors: [
        '$: property name "averyveryverylongname" is not allowed by "propertyNames"',
        '$: missing property "kind" (required when "code" is present)',
      ],
    });
  });

  it("lists the deepest problems first, each once", () => {
    const schema: JsonSchema = {
      type: "object",
      required: ["a", "b"],
      properties: { items: { type: "array", items: { type: "object", properties: { n: { type: "number" } } } } },
    };
    expect(validateJson(schema, { items: [{ n: 1 }, { n: "x" }, 3] })).toEqual({
      ok: false,
      errors: [
        "$.items[1].n: expected number",
        "$.items[2]: expected object",
        '$: missing required property "a"',
        '$: missing required property "b"',
      ],
    });
  });

  it(`lists at most ${MAX_SCHEMA_ERRORS} problems`, () => {
    const schema: JsonSchema = { type: "array", items: { type: "string" } };
    const some = (count: number) =>
      validateJson(
        schema,
        Array.from({ length: count }, (_, i) => i),
      );
    const at = some(MAX_SCHEMA_ERRORS);
    const past = some(MAX_SCHEMA_ERRORS + 1);
    expect(!at.ok && at.errors).toHaveLength(MAX_SCHEMA_ERRORS);
    expect(!past.ok && past.errors).toHaveLength(MAX_SCHEMA_ERRORS);
    expect(!past.ok && past.errors[0]).toBe("$[0]: expected string");
  });

  it("refuses a value that would take more than the step budget, whatever the schema", () => {
    const defs: Record<string, JsonSchema> = { l0: { type: "string" } };
    for (let i = 1; i < 30; i++)
      defs[`l${i}`] = { anyOf: [{ $ref: `#/$defs/l${i - 1}` }, { $ref: `#/$defs/l${i - 1}` }] };
    const bomb: JsonSchema = { $defs: defs, $ref: "#/$defs/l29" };
    expect(checkSchemaDocument(bomb, "inputSchema").ok).toBe(true);
    expect(validateJson(bomb, 5)).toEqual({
      ok: false,
      errors: [
        `$: checking this value against the schema takes more than ${MAX_SCHEMA_CHECK_STEPS} steps; send a smaller value or simplify the schema`,
      ],
    });
  });

  it("runs patterns in linear time", () => {
    const schema: JsonSchema = { type: "string", pattern: "^(a+)+$" };
    expect(validateJson(schema, `${"a".repeat(5000)}!`)).toEqual({
      ok: false,
      errors: ['$: expected a string matching the pattern "^(a+)+$"'],
    });
    expect(validateJson(schema, "aaaa")).toEqual({ ok: true });
  });

  it(`checks a format on at most ${MAX_FORMAT_CHARS} characters`, () => {
    const schema: JsonSchema = { type: "string", format: "uri" };
    const uri = (length: number) => `https://example.com/${"a".repeat(length - 20)}`;
    expect(validateJson(schema, uri(MAX_FORMAT_CHARS))).toEqual({ ok: true });
    expect(validateJson(schema, uri(MAX_FORMAT_CHARS + 1))).toEqual({
      ok: false,
      errors: [`$: expected "uri" text of at most ${MAX_FORMAT_CHARS} characters`],
    });
    // Formats the draft does not define are annotations.
    expect(validateJson({ format: "url" }, "not a url")).toEqual({ ok: true });
  });

  it("says which property or item was not allowed, however deep the false schema sits", () => {
    const schema: JsonSchema = {
      type: "object",
      properties: {
        point: { type: "object", properties: { x: { type: "number" } }, additionalProperties: false },
        pair: { type: "array", prefixItems: [{ type: "string" }, { type: "number" }], items: false },
        never: false,
      },
    };
    expect(validateJson(schema, { point: { x: 1, y: 2 }, pair: ["a", 1, true], never: 0 })).toEqual({
      ok: false,
      errors: ["$.point.y: unexpected property", "$.pair[2]: unexpected item", "$.never: unexpected property"],
    });
  });

  it("leaves the caller's schema object as it was", () => {
    const schema: JsonSchema = { $defs: { s: { type: "string" } }, $ref: "#/$defs/s" };
    const before = JSON.stringify(schema);
    validateJson(schema, "x");
    expect(JSON.stringify(schema)).toBe(before);
    expect(Object.getOwnPropertyNames(schema)).toEqual(["$defs", "$ref"]);
  });

  it("treats undefined as null, as a run's result does", () => {
    expect(validateJson({ type: "null" }, undefined)).toEqual({ ok: true });
  });
});

describe("schemaMismatch", () => {
  it("words a run's refusal the same everywhere", () => {
    expect(schemaMismatch("inputSchema", ["$.city: expected string", "$.days: expected at most 7"])).toBe(
      "The input does not match the gadget's inputSchema: $.city: expected string; $.days: expected at most 7",
    );
    expect(schemaMismatch("outputSchema", ["$.tempC: expected number"])).toBe(
      "The result does not match the gadget's outputSchema: $.tempC: expected number",
    );
  });
});
