import { describe, expect, it } from "vitest";
import { envCompletionHint, grantsSomething } from "./env-hint.ts";

describe("envCompletionHint", () => {
  it("explains how to grant when env. is typed and nothing is granted", () => {
    const hint = envCompletionHint("    const value = await env.", {});
    expect(hint?.label).toContain("nothing granted");
    expect(hint?.documentation).toContain("Grants");
    expect(envCompletionHint("env.k", undefined)).toBeDefined();
  });

  it("stays away once something is granted, and from other names ending in env", () => {
    expect(envCompletionHint("env.", { kv: true })).toBeUndefined();
    expect(envCompletionHint("env.", { fetch: { hosts: ["a.example"] } })).toBeUndefined();
    expect(envCompletionHint("process.env.", {})).toBeUndefined();
    expect(envCompletionHint("myenv.", {})).toBeUndefined();
    expect(envCompletionHint("env", {})).toBeUndefined();
  });
});

describe("grantsSomething", () => {
  it("is false for no grants, empty lists and false flags", () => {
    expect(grantsSomething(undefined)).toBe(false);
    expect(grantsSomething({ kv: false, fetch: { hosts: [] }, secrets: [] })).toBe(false);
    expect(grantsSomething({ secrets: ["A"] })).toBe(true);
    expect(grantsSomething({ catalog: true })).toBe(true);
  });
});
