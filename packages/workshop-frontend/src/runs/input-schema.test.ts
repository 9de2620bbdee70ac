import { MAX_PAYLOAD_BYTES } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { checkPayloadText, declaredInputSchema, payloadFromDefaults, schemaProblemText } from "./input-schema.ts";

const manifest = (fields: Record<string, unknown>) => [
  { path: "gadget.json", content: JSON.stringify({ name: "weather", entry: "index.ts", ...fields }) },
  { path: "index.ts", content: "export default { run() {} };" },
];

const CITY = { type: "object", required: ["city"], properties: { city: { type: "string" } } };

describe("declaredInputSchema", () => {
  it("reads the schema gadget.json declares, as the editor holds it", () => {
    expect(declaredInputSchema(manifest({ inputSchema: CITY }))).toEqual({ status: "ok", schema: CITY });
  });

  it("declares none without one, or when gadget.json cannot be read (its own check says why)", () => {
    expect(declaredInputSchema(manifest({}))).toEqual({ status: "none" });
    expect(declaredInputSchema([{ path: "gadget.json", content: "{ nope" }])).toEqual({ status: "none" });
    expect(declaredInputSchema([{ path: "gadget.json", content: "[]" }])).toEqual({ status: "none" });
    expect(declaredInputSchema([])).toEqual({ status: "none" });
  });

  it("says what is wrong with a schema the Workshop would refuse", () => {
    const declared = declaredInputSchema(manifest({ inputSchema: { type: "objekt" } }));
    expect(declared.status).toBe("invalid");
    expect(declared.status === "invalid" && declared.error).toMatch(/^"inputSchema" is not a valid JSON Schema: /);
  });
});

describe("checkPayloadText", () => {
  it("passes a payload that fits, and any readable payload without a schema", () => {
    expect(checkPayloadText('{"city":"Oslo"}', CITY)).toEqual({ status: "ok", value: { city: "Oslo" } });
    expect(checkPayloadText("[1]", undefined)).toEqual({ status: "ok", value: [1] });
  });

  it("names each problem with its path", () => {
    expect(checkPayloadText('{"city":3}', CITY)).toEqual({
      status: "breaks-schema",
      value: { city: 3 },
      errors: ["$.city: expected string"],
    });
    expect(checkPayloadText("", CITY)).toMatchObject({ status: "breaks-schema", value: null });
  });

  it("says why text is no payload at all, before any schema", () => {
    expect(checkPayloadText("{", CITY)).toMatchObject({ status: "unreadable" });
    expect(checkPayloadText(JSON.stringify("x".repeat(MAX_PAYLOAD_BYTES + 1)), undefined).status).toBe("unreadable");
  });

  it("words the Run button's warning with the first problem and how many more", () => {
    expect(schemaProblemText(["$.a: expected string", "$.b: expected number"])).toBe(
      "The payload does not match gadget.json's inputSchema: $.a: expected string (and 1 more). Running sends it anyway; the Workshop answers invalid without running the gadget.",
    );
  });
});

describe("payloadFromDefaults", () => {
  it("starts a payload from the schema's defaults, or leaves it to the example when there are none", () => {
    const schema = {
      type: "object",
      properties: { units: { type: "string", default: "metric" }, city: { type: "string" } },
    };
    expect(payloadFromDefaults({ status: "ok", schema })).toEqual({ units: "metric" });
    expect(payloadFromDefaults({ status: "ok", schema: CITY })).toBeUndefined();
    expect(payloadFromDefaults({ status: "none" })).toBeUndefined();
  });
});
