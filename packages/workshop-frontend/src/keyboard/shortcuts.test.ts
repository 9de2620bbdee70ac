import { afterEach, describe, expect, it, vi } from "vitest";
import { isTypingTarget, shortcutOf } from "./shortcuts.ts";

const press = (key: string, mods: { ctrlKey?: boolean; metaKey?: boolean } = {}) => ({
  key,
  ctrlKey: mods.ctrlKey ?? false,
  metaKey: mods.metaKey ?? false,
});

describe("shortcutOf", () => {
  it("runs on Ctrl+Enter or Cmd+Enter, and saves on Ctrl+S or Cmd+S, even while typing", () => {
    expect(shortcutOf(press("Enter", { ctrlKey: true }), true)).toBe("run");
    expect(shortcutOf(press("Enter", { metaKey: true }), false)).toBe("run");
    expect(shortcutOf(press("s", { ctrlKey: true }), true)).toBe("save");
    expect(shortcutOf(press("s", { metaKey: true }), false)).toBe("save");
  });

  it("opens the shortcut sheet on ? only where ? is not a character being typed", () => {
    expect(shortcutOf(press("?"), false)).toBe("shortcut-sheet");
    expect(shortcutOf(press("?"), true)).toBeUndefined();
    expect(shortcutOf(press("?", { ctrlKey: true }), false)).toBeUndefined();
  });

  it("leaves every other key alone", () => {
    expect(shortcutOf(press("Enter"), false)).toBeUndefined();
    expect(shortcutOf(press("s"), false)).toBeUndefined();
    expect(shortcutOf(press("k", { ctrlKey: true }), false)).toBeUndefined();
  });
});

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
