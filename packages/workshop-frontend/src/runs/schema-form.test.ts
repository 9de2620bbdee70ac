import type { JsonValue } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import {
  defaultPayload,
  editPayload,
  type FormField,
  fieldText,
  formFields,
  formPayload,
  messagePointer,
  placeMessages,
  pointerOf,
  shownText,
  typedText,
  valueFromText,
  withValue,
} from "./schema-form.ts";

const WEATHER = {
  type: "object",
  required: ["city"],
  properties: {
    city: { type: "string", description: "Where to look", format: "hostname" },
    units: { enum: ["metric", "imperial"], default: "metric" },
    days: { type: "integer", default: 3 },
    detailed: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    scores: { type: "array", items: { type: "number" } },
    where: {
      type: "object",
      required: ["lat"],
      properties: { lat: { type: "number" }, lon: { type: "number", default: 0 } },
    },
    extra: { anyOf: [{ type: "string" }, { type: "null" }] },
    "first name": { type: "string" },
  },
};

const fields = formFields(WEATHER) as FormField[];
const field = (key: string, list: readonly FormField[] = fields) => {
  const found = list.find((f) => f.key === key);
  if (!found) throw new Error(`no field ${key}`);
  return found;
};

describe("formFields", () => {
  it("reads each property as a field of its kind, with required, description and default", () => {
    expect(fields.map((f) => [f.key, f.kind])).toEqual([
      ["city", "text"],
      ["units", "choice"],
      ["days", "number"],
      ["detailed", "boolean"],
      ["tags", "list"],
      ["scores", "list"],
      ["where", "object"],
      ["extra", "json"],
      ["first name", "text"],
    ]);
    expect(field("city")).toMatchObject({ required: true, description: "Where to look", pointer: "$.city" });
    expect(field("units")).toMatchObject({ required: false, options: ["metric", "imperial"], defaultValue: "metric" });
    expect(field("days")).toMatchObject({ kind: "number", integer: true, defaultValue: 3 });
    expect(field("scores")).toMatchObject({ kind: "list", item: "number" });
    const where = field("where");
    expect(where.kind === "object" && where.fields.map((f) => [f.pointer, f.required])).toEqual([
      ["$.where.lat", true],
      ["$.where.lon", false],
    ]);
    expect(field("first name").pointer).toBe('$["first name"]');
  });

  it("offers no form for a schema that is not an object with properties", () => {
    expect(formFields({ type: "string" })).toBeUndefined();
    expect(formFields({ type: "object" })).toBeUndefined();
    expect(formFields({ type: "object", properties: {} })).toBeUndefined();
    expect(formFields({ properties: { a: { type: "string" } } })?.map((f) => f.kind)).toEqual(["text"]);
  });

  it("edits as JSON what it has no control for: arrays of objects, unions, very deep nesting", () => {
    let deep: Record<string, unknown> = { type: "string" };
    for (let i = 0; i < 12; i++) deep = { type: "object", properties: { next: deep } };
    const kinds = formFields({
      type: "object",
      properties: { list: { type: "array", items: { type: "object" } }, maybe: { type: ["string", "null"] }, deep },
    })?.map((f) => f.kind);
    expect(kinds).toEqual(["json", "json", "object"]);
    let nested = formFields({ type: "object", properties: { deep } })?.[0];
    let depth = 0;
    while (nested?.kind === "object") {
      nested = nested.fields[0];
      depth++;
    }
    expect(nested?.kind).toBe("json");
    expect(depth).toBe(8);
  });

  it("ignores a default that is not JSON", () => {
    const [only] = formFields({ type: "object", properties: { n: { type: "number", default: Number.NaN } } }) ?? [];
    expect(only?.defaultValue).toBeUndefined();
  });
});

describe("payload text and field text", () => {
  const root = {
    city: "Oslo",
    units: "imperial",
    days: 5,
    tags: ["a", "b"],
    where: { lat: 59.9 },
    extra: null,
    "first name": "Ada",
  };

  it("reads each field's text from the payload, and empty for what it leaves out", () => {
    expect(fieldText(field("city"), root)).toBe("Oslo");
    expect(fieldText(field("units"), root)).toBe('"imperial"');
    expect(fieldText(field("days"), root)).toBe("5");
    expect(fieldText(field("tags"), root)).toBe("a, b");
    expect(fieldText(field("extra"), root)).toBe("null");
    expect(fieldText(field("first name"), root)).toBe("Ada");
    const where = field("where");
    expect(where.kind === "object" && fieldText(field("lat", where.fields), root)).toBe("59.9");
    expect(where.kind === "object" && fieldText(field("lon", where.fields), root)).toBe("");
    expect(fieldText(field("scores"), root)).toBe("");
  });

  it("turns a field's text into the value it stands for", () => {
    expect(valueFromText(field("city"), " x ")).toEqual({ ok: true, value: " x " });
    expect(valueFromText(field("city"), "")).toEqual({ ok: true, value: undefined });
    expect(valueFromText(field("days"), "12")).toEqual({ ok: true, value: 12 });
    expect(valueFromText(field("days"), "-1.5e2")).toEqual({ ok: true, value: -150 });
    // Kept as typed: the schema check says what is wrong, next to the field.
    expect(valueFromText(field("days"), "soon")).toEqual({ ok: true, value: "soon" });
    expect(valueFromText(field("days"), "  ")).toEqual({ ok: true, value: undefined });
    expect(valueFromText(field("tags"), "a, b,,c ,")).toEqual({ ok: true, value: ["a", "b", "c"] });
    expect(valueFromText(field("scores"), "1, 2.5, x")).toEqual({ ok: true, value: [1, 2.5, "x"] });
    expect(valueFromText(field("extra"), '{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    const bad = valueFromText(field("extra"), "{a:1}");
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.error).toMatch(/^Not valid JSON: /);
  });

  it("writes a field into the payload, keeping the other properties and their order", () => {
    const text = editPayload(root, field("days"), 7);
    expect(JSON.parse(text)).toEqual({ ...root, days: 7 });
    expect(Object.keys(JSON.parse(text))).toEqual(Object.keys(root));
    expect(text).toBe(JSON.stringify({ ...root, days: 7 }, null, 2));
    const { city: _left, ...rest } = root;
    expect(JSON.parse(editPayload(root, field("city"), undefined))).toEqual(rest);
  });

  it("makes the objects on a nested field's way, and leaves the payload it was given alone", () => {
    const where = field("where");
    const lon = where.kind === "object" ? field("lon", where.fields) : where;
    const empty = {};
    expect(JSON.parse(editPayload(empty, lon, 10))).toEqual({ where: { lon: 10 } });
    expect(empty).toEqual({});
    expect(JSON.parse(editPayload({ where: "not an object" }, lon, 1))).toEqual({ where: { lon: 1 } });
  });

  it("keeps a property named __proto__ an ordinary property", () => {
    const next = withValue({}, ["__proto__"], { polluted: true });
    expect(Object.hasOwn(next, "__proto__")).toBe(true);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(next))).toEqual(JSON.parse('{"__proto__":{"polluted":true}}'));
  });

  it("keeps what the person typed while the payload holds what it left there", () => {
    const days = field("days");
    const typed = (text: string, before: Record<string, JsonValue>) => typedText(days, before, text);
    // "1." is 1 in the payload, and stays "1." in the field.
    expect(shownText(days, { days: 1 }, typed("1.", {}))).toBe("1.");
    expect(shownText(days, { days: 1 }, typed("1.0", {}))).toBe("1.0");
    // The JSON view changed the value since: the field follows.
    expect(shownText(days, { days: 2 }, typed("1.", {}))).toBe("2");
    expect(shownText(days, {}, typed("1.", {}))).toBe("");
    expect(shownText(days, { days: 2 }, undefined)).toBe("2");
    expect(shownText(field("tags"), { tags: ["a"] }, typedText(field("tags"), {}, "a, "))).toBe("a, ");
    // Half-typed JSON is refused and left in the field, until the payload changes.
    const extra = field("extra");
    const half = typedText(extra, { extra: 1 }, "{oops");
    expect(half).toEqual({ text: "{oops", value: "1" });
    expect(shownText(extra, { extra: 1 }, half)).toBe("{oops");
    expect(shownText(extra, { extra: 2 }, half)).toBe("2");
    expect(shownText(field("city"), {}, typedText(field("city"), { city: "x" }, ""))).toBe("");
  });

  it("reads the payload text the form can edit: an object, empty as {}", () => {
    expect(formPayload("")).toEqual({ ok: true, value: {} });
    expect(formPayload('{"a":1}')).toEqual({ ok: true, value: { a: 1 } });
    expect(formPayload("[1]")).toMatchObject({ ok: false, reason: expect.stringMatching(/not one: edit it as JSON/) });
    expect(formPayload("{")).toMatchObject({ ok: false, reason: expect.stringMatching(/not valid JSON/) });
  });

  it("starts a new payload from the schema's defaults", () => {
    expect(defaultPayload(fields)).toEqual({ units: "metric", days: 3, where: { lon: 0 } });
    expect(defaultPayload(formFields({ type: "object", properties: { a: { type: "string" } } }) ?? [])).toEqual({});
  });
});

describe("validation messages beside their fields", () => {
  it("reads the path a message is about", () => {
    expect(messagePointer("$.city: expected string")).toBe("$.city");
    expect(messagePointer('$["first name"]: expected string')).toBe('$["first name"]');
    expect(messagePointer('$.a["b: c"].d: expected at most 3')).toBe('$.a["b: c"].d');
    expect(messagePointer("$.tags[2]: expected string")).toBe("$.tags[2]");
    expect(messagePointer("$: expected object")).toBe("$");
    expect(messagePointer("no path here")).toBeUndefined();
  });

  it("puts each message beside the most specific field, a missing property beside its own field", () => {
    const { byField, unplaced } = placeMessages(fields, [
      "$.days: expected integer",
      "$.tags[1]: expected string",
      '$: missing required property "city"',
      '$.where: missing required property "lat"',
      "$.where.lon: expected number",
      "$.where: expected object",
      '$["first name"]: expected string',
      "$: expected object",
      '$: missing required property "other"',
    ]);
    expect(Object.fromEntries(byField)).toEqual({
      "$.days": ["$.days: expected integer"],
      "$.tags": ["$.tags[1]: expected string"],
      "$.city": ['$: missing required property "city"'],
      "$.where.lat": ['$.where: missing required property "lat"'],
      "$.where.lon": ["$.where.lon: expected number"],
      "$.where": ["$.where: expected object"],
      '$["first name"]': ['$["first name"]: expected string'],
    });
    expect(unplaced).toEqual(["$: expected object", '$: missing required property "other"']);
  });

  it("writes pointers as the validator does", () => {
    expect(pointerOf([])).toBe("$");
    expect(pointerOf(["a", "b c", "_d$"])).toBe('$.a["b c"]._d$');
  });
});
