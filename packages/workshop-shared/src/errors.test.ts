import { describe, expect, it } from "vitest";
import { codedError, errorCode } from "./errors.ts";

describe("errorCode", () => {
  it("reads the Workshop's codes and nothing else", () => {
    expect(errorCode(codedError("UNKNOWN_TOKEN", "Unknown workspace token"))).toBe("UNKNOWN_TOKEN");
    expect(codedError("INVALID_TOKEN", "x", TypeError)).toBeInstanceOf(TypeError);
    expect(errorCode(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBeUndefined();
    expect(errorCode(new Error("Unknown workspace token"))).toBeUndefined();
    expect(errorCode("UNKNOWN_TOKEN")).toBeUndefined();
    expect(errorCode(null)).toBeUndefined();
  });
});
