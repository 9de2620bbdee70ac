import { describe, expect, it } from "vitest";
import { errorHeadline, errorLines } from "./error-value.ts";

describe("errorLines", () => {
  it("is `Name: message` with the stack's frames beneath, as the wire sends a logged Error", () => {
    expect(
      errorLines({
        name: "Error",
        message: "b-msg",
        stack: "Error: b-msg\n    at Object.run (index.ts:2:17)\n    at next (lib/util.ts:9:3)",
      }),
    ).toEqual({ headline: "Error: b-msg", frames: ["at Object.run (index.ts:2:17)", "at next (lib/util.ts:9:3)"] });
  });

  it("skips every line of a multi-line message, and keeps a renamed error's own name", () => {
    const lines = errorLines({
      name: "HttpError",
      message: "first\nsecond",
      stack: "Error: first\nsecond\n    at run (index.ts:4:9)",
    });
    expect(lines).toEqual({ headline: "HttpError: first\nsecond", frames: ["at run (index.ts:4:9)"] });
  });

  it("has no frames when the stack has none", () => {
    expect(errorLines({ name: "Error", message: "x", stack: "" }).frames).toEqual([]);
    expect(errorLines({ name: "Error", message: "x", stack: "Error: x" }).frames).toEqual([]);
  });
});

describe("errorHeadline", () => {
  it("is the name alone for an empty message", () => {
    expect(errorHeadline("AbortError", "")).toBe("AbortError");
  });
});
