import { describe, expect, it } from "vitest";
import { hasTextControls, withoutTextControls } from "./text-controls.ts";

describe("text controls", () => {
  it("finds controls and bidi overrides, and leaves other text alone", () => {
    for (const text of ["a\u202Eb", "a\u0000", "bell\u0007", "\u2066x", "x\u200F", "a\u009Fb", "tab\there"])
      expect(hasTextControls(text), JSON.stringify(text)).toBe(true);
    for (const text of ["echo", "héllo wörld", "日本語", "emoji 🙂", "שלום", "a-b_c.d"])
      expect(hasTextControls(text), text).toBe(false);
  });

  it("puts a space where each was", () => {
    expect(withoutTextControls("evil\u202Egnp.exe")).toBe("evil gnp.exe");
    expect(withoutTextControls("a\u0007\u0000b 🙂")).toBe("a  b 🙂");
  });
});
