import { describe, expect, it } from "vitest";
import { agentSchemaTexts } from "./agent-schemas.ts";

describe("agentSchemaTexts", () => {
  it("shows each declared schema as a type and as formatted JSON, input first", () => {
    const inputSchema = {
      type: "object",
      required: ["city"],
      properties: { city: { type: "string" }, days: { type: "integer" } },
    };
    const outputSchema = { type: "object", properties: { tempC: { type: "number" } } };
    const texts = agentSchemaTexts({ outputSchema, inputSchema });
    expect(texts.map((text) => text.which)).toEqual(["input", "output"]);
    expect(texts[0]?.type).toMatch(/city: string/);
    expect(texts[0]?.type).toMatch(/days\?: number/);
    expect(texts[0]?.json).toBe(JSON.stringify(inputSchema, null, 2));
    expect(texts[1]?.type).toMatch(/tempC\?: number/);
  });

  it("shows nothing for a version that declares no schema", () => {
    expect(agentSchemaTexts({})).toEqual([]);
    expect(agentSchemaTexts({ outputSchema: { type: "string" } }).map((text) => [text.which, text.type])).toEqual([
      ["output", "string"],
    ]);
  });
});
