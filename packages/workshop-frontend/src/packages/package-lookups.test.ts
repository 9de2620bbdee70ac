import { describe, expect, it } from "vitest";
import { lookupStates } from "./package-lookups.ts";

describe("lookupStates", () => {
  it("keeps found versions and failures by name, and leaves out lookups still on their way", () => {
    const states = lookupStates(
      ["fx-zod", "fx-nope", "fx-slow"],
      [{ data: { name: "fx-zod", version: "4.1.2" } }, { error: new Error("fx-nope: no such package") }, {}],
    );
    expect([...states]).toEqual([
      ["fx-zod", { status: "found", found: { name: "fx-zod", version: "4.1.2" } }],
      ["fx-nope", { status: "failed", message: "fx-nope: no such package" }],
    ]);
  });
});
