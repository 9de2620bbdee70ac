/**
 * JSON Schemas for `gadget.json` and `gadget.tests.json`, for the editor's JSON language: unknown grants,
 * wrong types and bad hosts are squiggled while they are typed. Made from the very valibot schemas that
 * check the files (`@gadgets/workshop-shared/schemas`) by valibot's own converter, so the two cannot
 * drift; held in memory, never fetched.
 *
 * What JSON Schema cannot say (a host's `headers` naming a host not granted, a test pattern the linear
 * engine refuses, a nested `inputSchema`'s validity) is left to the schemas' own checks, which the
 * Problems and the run report.
 */

import { TESTS_PATH } from "@gadgets/workshop-shared";
import { GadgetManifestSchema, TestCaseSchema, TestFileSchema } from "@gadgets/workshop-shared/schemas";
import { type ConversionConfig, type JsonSchema, toJsonSchema } from "@valibot/to-json-schema";

type Convertible = Parameters<typeof toJsonSchema>[0];

const CONVERSION: ConversionConfig = {
  // The files' schemas start with a type guard (`v.custom`) before the object or list: the shape that
  // counts is the last schema of each pipeline.
  typeMode: "output",
  // Checks only code can make (`v.check`, `v.rawCheck`, `v.trim`) are left out, not refused.
  errorMode: "ignore",
  target: "draft-07",
  // A type's own message, where valibot has it as text, replaces the editor's "Incorrect type".
  overrideSchema({ valibotSchema, jsonSchema }) {
    const message = (valibotSchema as { message?: unknown }).message;
    return typeof message === "string" ? { ...jsonSchema, errorMessage: message } : undefined;
  },
};

function converted(schema: Convertible): JsonSchema {
  const { $schema: _, ...rest } = toJsonSchema(schema, CONVERSION);
  return rest;
}

/** `gadget.json`'s schema. */
export function manifestJsonSchema(): JsonSchema {
  return converted(GadgetManifestSchema);
}

/** `gadget.tests.json`'s schema: the file's list holds cases (checked one by one there, to name each case). */
export function testsJsonSchema(): JsonSchema {
  const file = converted(TestFileSchema);
  const tests = file.properties?.tests;
  if (typeof tests !== "object") throw new Error(`${TESTS_PATH}'s schema lost its "tests" list.`);
  return { ...file, properties: { ...file.properties, tests: { ...tests, items: converted(TestCaseSchema) } } };
}

/** What the editor's JSON language is given: each schema, the file it matches, no fetching. */
export function fileSchemas(): { uri: string; fileMatch: string[]; schema: JsonSchema }[] {
  return [
    { uri: "inmemory://workshop/gadget.schema.json", fileMatch: ["gadget.json"], schema: manifestJsonSchema() },
    { uri: "inmemory://workshop/gadget.tests.schema.json", fileMatch: [TESTS_PATH], schema: testsJsonSchema() },
  ];
}
