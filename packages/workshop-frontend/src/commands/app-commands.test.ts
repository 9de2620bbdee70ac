import { describe, expect, it } from "vitest";
import { APP_COMMANDS, commandForKey, keyLabel, matchCommands, shortcutRows } from "./app-commands.ts";

const press = (key: string, mods: { ctrl?: boolean; meta?: boolean; shift?: boolean; alt?: boolean } = {}) => ({
  key,
  ctrlKey: mods.ctrl ?? false,
  metaKey: mods.meta ?? false,
  shiftKey: mods.shift ?? false,
  altKey: mods.alt ?? false,
});
const idle = { typing: false, running: false, taken: false };
const typing = { ...idle, typing: true };

describe("commandForKey", () => {
  it("runs on Ctrl/Cmd+Enter and tests on Ctrl/Cmd+Shift+Enter, even while typing", () => {
    expect(commandForKey(press("Enter", { ctrl: true }), typing)).toBe("run");
    expect(commandForKey(press("Enter", { meta: true }), idle)).toBe("run");
    expect(commandForKey(press("Enter", { ctrl: true, shift: true }), typing)).toBe("run-tests");
    expect(commandForKey(press("Enter", { meta: true, shift: true }), idle)).toBe("run-tests");
  });

  it("opens the palette on Ctrl/Cmd+K and Ctrl/Cmd+Shift+P, in the editor too", () => {
    expect(commandForKey(press("k", { ctrl: true }), typing)).toBe("palette");
    expect(commandForKey(press("K", { meta: true }), idle)).toBe("palette");
    expect(commandForKey(press("P", { ctrl: true, shift: true }), typing)).toBe("palette");
    expect(commandForKey(press("p", { ctrl: true }), idle)).toBeUndefined();
  });

  it("cancels on Escape only while a run goes and nothing else took the key", () => {
    expect(commandForKey(press("Escape"), { ...idle, running: true })).toBe("cancel-run");
    expect(commandForKey(press("Escape"), { ...typing, running: true })).toBe("cancel-run");
    expect(commandForKey(press("Escape"), idle)).toBeUndefined();
    expect(commandForKey(press("Escape"), { ...idle, running: true, taken: true })).toBeUndefined();
  });

  it("opens the shortcut sheet on ? (with the Shift it takes to type) only where it is not a character", () => {
    expect(commandForKey(press("?", { shift: true }), idle)).toBe("shortcuts");
    expect(commandForKey(press("?"), idle)).toBe("shortcuts");
    expect(commandForKey(press("?", { shift: true }), typing)).toBeUndefined();
    expect(commandForKey(press("?", { ctrl: true }), idle)).toBeUndefined();
  });

  it("saves on Ctrl/Cmd+S, and leaves other keys, Alt chords and the editor's own keys alone", () => {
    expect(commandForKey(press("s", { ctrl: true }), typing)).toBe("save");
    expect(commandForKey(press("s"), idle)).toBeUndefined();
    expect(commandForKey(press("Enter"), idle)).toBeUndefined();
    expect(commandForKey(press("Enter", { ctrl: true, alt: true }), idle)).toBeUndefined();
    expect(commandForKey(press("F1"), idle)).toBeUndefined();
  });
});

describe("matchCommands", () => {
  it('finds Run first for "run", then the other commands with the word', () => {
    const titles = matchCommands("run", APP_COMMANDS).map((command) => command.title);
    expect(titles[0]).toBe("Run");
    expect(titles).toEqual(expect.arrayContaining(["Run tests", "Cancel run", "Share run"]));
    expect(titles).not.toContain("Publish");
  });

  it("matches keywords and details, ignores case and spaces, and lists everything for no text", () => {
    expect(matchCommands("  STOP ", APP_COMMANDS).map((command) => command.id)).toEqual(["cancel-run"]);
    expect(matchCommands("dark", APP_COMMANDS)[0]?.id).toBe("toggle-theme");
    expect(matchCommands("switch draft", APP_COMMANDS)[0]?.id).toBe("switch-draft");
    expect(matchCommands("hover", APP_COMMANDS)[0]?.id).toBe("editor-commands");
    expect(matchCommands("", APP_COMMANDS)).toHaveLength(APP_COMMANDS.length);
    expect(matchCommands("zzz", APP_COMMANDS)).toEqual([]);
  });
});

describe("the shortcut sheet", () => {
  it("lists every app key from the table, Ctrl+Shift+Enter among them, then the editor's", () => {
    const rows = shortcutRows();
    const keys = rows.map((row) => row.keys);
    expect(keys).toEqual(
      expect.arrayContaining([
        "Ctrl/Cmd+Enter",
        "Ctrl/Cmd+Shift+Enter",
        "Escape",
        "Ctrl/Cmd+K · Ctrl/Cmd+Shift+P",
        "Ctrl/Cmd+S",
        "?",
        "F1",
        "Ctrl+Space",
      ]),
    );
    const bound = APP_COMMANDS.filter((command) => command.keys.length > 0);
    expect(rows.slice(0, bound.length).map((row) => row.keys)).toEqual(
      bound.map((command) => command.keys.map(keyLabel).join(" · ")),
    );
    expect(rows.find((row) => row.keys === "Escape")?.what).toContain("while a run goes");
    // Ctrl/Cmd+K is the palette's, so the sheet says where the editor's Ctrl/Cmd+K chords went.
    expect(rows.find((row) => row.what.includes("Ctrl/Cmd+K chords"))?.what).toContain("Show or Focus Hover");
  });
});
