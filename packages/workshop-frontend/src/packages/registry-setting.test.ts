import { describe, expect, it } from "vitest";
import { registryEntry, registryView } from "./registry-setting.ts";

describe("registryView", () => {
  it("says whose registry it is and whether a token is kept, never more", () => {
    expect(registryView({ url: "https://registry.npmjs.org/", isDefault: true, hasToken: false })).toEqual({
      url: "https://registry.npmjs.org/",
      setting: "the Workshop's default",
      token: "none",
    });
    expect(registryView({ url: "https://npm.example.com/", isDefault: false, hasToken: true })).toEqual({
      url: "https://npm.example.com/",
      setting: "this workspace's own",
      token: "kept (never shown)",
    });
  });
});

describe("registryEntry", () => {
  it("sends the URL and token trimmed, and no token when none was typed", () => {
    expect(registryEntry(" https://npm.example.com/ ", "s3cret\n")).toEqual({
      ok: true,
      value: { url: "https://npm.example.com/", token: "s3cret" },
    });
    expect(registryEntry("https://npm.example.com/", "  ")).toEqual({
      ok: true,
      value: { url: "https://npm.example.com/" },
    });
  });

  it("refuses an empty or malformed URL with the words to fix it", () => {
    expect(registryEntry("  ", "")).toEqual({
      ok: false,
      error: 'Type the registry\'s URL, like "https://npm.example.com/".',
    });
    expect(registryEntry("npm.example.com", "")).toEqual({
      ok: false,
      error: 'The registry must be a URL like "https://registry.example.com/".',
    });
  });

  it("refuses a token over the Workshop's size, saying so", () => {
    expect(registryEntry("https://npm.example.com/", "x".repeat(4096)).ok).toBe(true);
    expect(registryEntry("https://npm.example.com/", "x".repeat(4097))).toEqual({
      ok: false,
      error: "A registry token is at most 4096 characters; check what was pasted.",
    });
  });
});
