/**
 * The JSON Schema draft 2020-12 meta-schema as one document: the vocabularies of
 * https://json-schema.org/draft/2020-12/schema (core, applicator, unevaluated, validation, meta-data,
 * format-annotation, content) and its deprecated keywords, merged, with each `$dynamicRef: "#meta"` as
 * `$ref: "#"`. The validator does not implement `$dynamicRef`, and without extending the meta-schema
 * the two mean the same. Written out here because the validator ships no meta-schemas and fetches none.
 */

const SCHEMA = { $ref: "#" };
const SCHEMA_MAP = { type: "object", additionalProperties: SCHEMA };

export const DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema";

export const META_SCHEMA_2020_12 = {
  $schema: DRAFT_2020_12,
  type: ["object", "boolean"],
  properties: {
    // core
    $id: { $ref: "#/$defs/uriReferenceString", pattern: "^[^#]*#?$" },
    $schema: { $ref: "#/$defs/uriString" },
    $ref: { $ref: "#/$defs/uriReferenceString" },
    $anchor: { $ref: "#/$defs/anchorString" },
    $dynamicRef: { $ref: "#/$defs/uriReferenceString" },
    $dynamicAnchor: { $ref: "#/$defs/anchorString" },
    $vocabulary: {
      type: "object",
      propertyNames: { $ref: "#/$defs/uriString" },
      additionalProperties: { type: "boolean" },
    },
    $comment: { type: "string" },
    $defs: SCHEMA_MAP,
    // applicator
    prefixItems: { $ref: "#/$defs/schemaArray" },
    items: SCHEMA,
    contains: SCHEMA,
    additionalProperties: SCHEMA,
    properties: SCHEMA_MAP,
    patternProperties: { ...SCHEMA_MAP, propertyNames: { format: "regex" } },
    dependentSchemas: SCHEMA_MAP,
    propertyNames: SCHEMA,
    if: SCHEMA,
    // biome-ignore lint/suspicious/noThenProperty: the JSON Schema keyword; this object is data, never awaited.
    then: SCHEMA,
    else: SCHEMA,
    allOf: { $ref: "#/$defs/schemaArray" },
    anyOf: { $ref: "#/$defs/schemaArray" },
    oneOf: { $ref: "#/$defs/schemaArray" },
    not: SCHEMA,
    // unevaluated
    unevaluatedItems: SCHEMA,
    unevaluatedProperties: SCHEMA,
    // validation
    type: {
      anyOf: [
        { $ref: "#/$defs/simpleTypes" },
        { type: "array", items: { $ref: "#/$defs/simpleTypes" }, minItems: 1, uniqueItems: true },
      ],
    },
    const: true,
    enum: { type: "array", items: true },
    multipleOf: { type: "number", exclusiveMinimum: 0 },
    maximum: { type: "number" },
    exclusiveMaximum: { type: "number" },
    minimum: { type: "number" },
    exclusiveMinimum: { type: "number" },
    maxLength: { $ref: "#/$defs/nonNegativeInteger" },
    minLength: { $ref: "#/$defs/nonNegativeInteger" },
    pattern: { type: "string", format: "regex" },
    maxItems: { $ref: "#/$defs/nonNegativeInteger" },
    minItems: { $ref: "#/$defs/nonNegativeInteger" },
    uniqueItems: { type: "boolean" },
    maxContains: { $ref: "#/$defs/nonNegativeInteger" },
    minContains: { $ref: "#/$defs/nonNegativeInteger" },
    maxProperties: { $ref: "#/$defs/nonNegativeInteger" },
    minProperties: { $ref: "#/$defs/nonNegativeInteger" },
    required: { $ref: "#/$defs/stringArray" },
    dependentRequired: { type: "object", additionalProperties: { $ref: "#/$defs/stringArray" } },
    // meta-data
    title: { type: "string" },
    description: { type: "string" },
    default: true,
    deprecated: { type: "boolean" },
    readOnly: { type: "boolean" },
    writeOnly: { type: "boolean" },
    examples: { type: "array", items: true },
    // format-annotation
    format: { type: "string" },
    // content
    contentEncoding: { type: "string" },
    contentMediaType: { type: "string" },
    contentSchema: SCHEMA,
    // deprecated, still part of the 2020-12 meta-schema
    definitions: SCHEMA_MAP,
    dependencies: {
      type: "object",
      additionalProperties: { anyOf: [SCHEMA, { $ref: "#/$defs/stringArray" }] },
    },
    $recursiveAnchor: { type: "boolean" },
    $recursiveRef: { $ref: "#/$defs/uriReferenceString" },
  },
  $defs: {
    anchorString: { type: "string", pattern: "^[A-Za-z_][-A-Za-z0-9._]*$" },
    uriString: { type: "string", format: "uri" },
    uriReferenceString: { type: "string", format: "uri-reference" },
    schemaArray: { type: "array", minItems: 1, items: SCHEMA },
    nonNegativeInteger: { type: "integer", minimum: 0 },
    simpleTypes: { enum: ["array", "boolean", "integer", "null", "number", "object", "string"] },
    stringArray: { type: "array", items: { type: "string" }, uniqueItems: true },
  },
};
