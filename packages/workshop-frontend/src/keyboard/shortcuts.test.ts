import { afterEach, describe, expect, it, vi } from "vitest";
import { isTypingTarget } from "./shortcuts.ts";

/** Just enough of an element for the check (the unit tests run without a DOM). */
class FakeElement {
  constructor(
    readonly tagName: string,
    readonly isContentEditable = false,
    private readonly inEditor = false,
  ) {}
  closest(selector: string): FakeElement | null {
    return selector === ".monaco-editor" && this.inEditor ? this : null;
  }
}

describe("isTypingTarget", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("is true in fields, editable elements and the code editor", () => {
    vi.stubGlobal("HTMLElement", FakeElement);
    const typing = (element: FakeElement) => isTypingTarget(element as unknown as EventTarget);
    expect(["INPUT", "TEXTAREA", "SELECT"].map((tag) => typing(new FakeElement(tag)))).toEqual([true, true, true]);
    expect(typing(new FakeElement("DIV", true))).toBe(true);
    expect(typing(new FakeElement("DIV", false, true))).toBe(true);
    expect(typing(new FakeElement("BUTTON"))).toBe(false);
  });

  it("is false where there is no element, or no DOM at all", () => {
    expect(isTypingTarget(null)).toBe(false);
    expect(isTypingTarget({} as EventTarget)).toBe(false);
  });
});
