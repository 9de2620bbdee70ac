import { MAX_PAYLOAD_BYTES } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { parsePayload } from "./payload.ts";

describe("parsePayload", () => {
  it("reads JSON, and empty text as null", () => {
    expect(parsePayload('{ "input": "hi" }')).toEqual({ ok: true, value: { input: "hi" } });
    expect(parsePayload("  \n")).toEqual({ ok: true, value: null });
  });

  it("says why text is not JSON", () => {
    const parsed = parsePayload("{ input: 1 }");
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(/^The payload is not valid JSON: /);
  });

  it("refuses what the server would refuse", () => {
    expect(parsePayload(JSON.stringify("x".repeat(MAX_PAYLOAD_BYTES + 1))).ok).toBe(false);
  });
});
