import { describe, expect, it } from "vitest";
import { MAX_SECRET_BYTES, MAX_SECRET_GRANTS, MIN_SECRET_BYTES } from "../limits.ts";
import { check } from "./check.ts";
import { GadgetGrantsSchema } from "./gadget.ts";
import {
  fillTemplate,
  grantedSecretNames,
  SecretNameSchema,
  SecretValueSchema,
  templatePlaceholders,
} from "./secret-grants.ts";

describe("SecretNameSchema", () => {
  it.each(["GITHUB_TOKEN", "_X", "A", `A${"B".repeat(63)}`])("takes %s", (name) => {
    expect(check(SecretNameSchema, name).ok).toBe(true);
  });
  it.each(["github_token", "1ABC", "", "A-B", `A${"B".repeat(64)}`, 7])("refuses %s", (name) => {
    expect(check(SecretNameSchema, name)).toEqual({ ok: false, error: expect.stringContaining("GITHUB_TOKEN") });
  });
});

describe("SecretValueSchema", () => {
  it(`takes ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes and refuses one fewer or one more, never quoting the value`, () => {
    expect(check(SecretValueSchema, "x".repeat(MIN_SECRET_BYTES)).ok).toBe(true);
    expect(check(SecretValueSchema, "x".repeat(MAX_SECRET_BYTES)).ok).toBe(true);
    const short = check(SecretValueSchema, "s".repeat(MIN_SECRET_BYTES - 1));
    expect(short).toEqual({ ok: false, error: expect.stringContaining(`this one is ${MIN_SECRET_BYTES - 1}`) });
    const long = check(SecretValueSchema, "l".repeat(MAX_SECRET_BYTES + 1));
    expect(long).toEqual({ ok: false, error: expect.stringContaining(`this one is ${MAX_SECRET_BYTES + 1}`) });
    expect(JSON.stringify(long)).not.toContain("lll");
    // Bytes, not characters.
    expect(check(SecretValueSchema, "é".repeat(MIN_SECRET_BYTES / 2)).ok).toBe(true);
    expect(check(SecretValueSchema, null).ok).toBe(false);
  });

  it("refuses a value with half of a surrogate pair, and takes a whole one", () => {
    expect(check(SecretValueSchema, "abc\ud800defghij")).toEqual({
      ok: false,
      error: expect.stringContaining("half of a surrogate pair"),
    });
    expect(check(SecretValueSchema, "abc\udc00defghij").ok).toBe(false);
    expect(check(SecretValueSchema, "abc🙂defghij").ok).toBe(true);
  });
});

describe("header templates", () => {
  it("reads the placeholders, and refuses a bad name or an open brace", () => {
    expect(templatePlaceholders("Bearer {{TOKEN}} and {{B}}{{TOKEN}}")).toEqual({
      ok: true,
      names: ["TOKEN", "B", "TOKEN"],
    });
    expect(templatePlaceholders("plain")).toEqual({ ok: true, names: [] });
    expect(templatePlaceholders("{{token}}")).toMatchObject({ ok: false, error: expect.stringContaining("{{token}}") });
    expect(templatePlaceholders("Bearer {{TOKEN")).toMatchObject({
      ok: false,
      error: expect.stringContaining("never closed"),
    });
  });

  it("fills them in, or names the first that has no value", () => {
    const values = new Map([["TOKEN", "abc{{B}}"]]);
    // A value is put in as it is: a placeholder inside a value is not filled again.
    expect(fillTemplate("Bearer {{TOKEN}}!", values)).toEqual({ ok: true, value: "Bearer abc{{B}}!" });
    expect(fillTemplate("{{TOKEN}}:{{MISSING}}", values)).toEqual({ ok: false, missing: "MISSING" });
  });

  it("names the secrets grants use, in env and in headers only", () => {
    expect(
      grantedSecretNames({
        secrets: ["A", "B", "A"],
        fetch: { headers: { "x.test": { Authorization: "Bearer {{A}}", "X-C": "{{C}}{{C}}" } } },
      }),
    ).toEqual({ inEnv: ["A", "B"], inHeaders: ["C"] });
    expect(grantedSecretNames({})).toEqual({ inEnv: [], inHeaders: [] });
  });
});

describe("secrets in GadgetGrantsSchema", () => {
  const fetch = (headers: Record<string, Record<string, string>>) => ({
    fetch: { hosts: ["api.example.com"], headers },
  });

  it("takes headers for a granted host", () => {
    const grants = { ...fetch({ "api.example.com": { Authorization: "Bearer {{TOKEN}}" } }), secrets: ["OTHER"] };
    expect(check(GadgetGrantsSchema, grants)).toEqual({ ok: true, value: grants });
  });

  it.each([
    [fetch({ "other.example.com": { A: "{{T}}" } }), 'names "other.example.com", which is not in "grants.fetch.hosts"'],
    [fetch({ "api.example.com": { "Bad Header": "{{T}}" } }), "is not a header name"],
    [fetch({ "api.example.com": { A: "{{lower}}" } }), "in the A header, {{lower}} is not a secret's name"],
    [fetch({ "api.example.com": { A: "x\r\nB: y" } }), "has a line break"],
    [{ secrets: "TOKEN" }, '"grants.secrets" must be a list of secret names'],
  ])("refuses %j", (grants, message) => {
    expect(check(GadgetGrantsSchema, grants)).toEqual({ ok: false, error: expect.stringContaining(message) });
  });

  it(`takes ${MAX_SECRET_GRANTS} secret names in all and refuses one more, counting header templates`, () => {
    const names = Array.from({ length: MAX_SECRET_GRANTS }, (_, i) => `S_${i}`);
    const atLimit = { secrets: names.slice(1), ...fetch({ "api.example.com": { A: `{{${names[0]}}}{{S_1}}` } }) };
    expect(check(GadgetGrantsSchema, atLimit).ok).toBe(true);
    const over = { ...atLimit, ...fetch({ "api.example.com": { A: `{{${names[0]}}}{{EXTRA}}` } }) };
    expect(check(GadgetGrantsSchema, over)).toEqual({
      ok: false,
      error: `The grants name ${MAX_SECRET_GRANTS + 1} secrets (in "grants.secrets" and fetch header templates); the limit is ${MAX_SECRET_GRANTS}.`,
    });
  });
});
