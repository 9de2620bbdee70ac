import { describe, expect, it } from "vitest";
import { MAX_AGENTS_PER_API_KEY, MAX_API_KEY_NAME_LENGTH } from "../limits.ts";
import { ApiKeyIdSchema, ApiKeySchema, CreateKeyInputSchema, SessionCredentialSchema } from "./api-keys.ts";
import { check } from "./check.ts";

const key = `gk_${"W".repeat(22)}${"s".repeat(43)}`;
const token = `gw_${"A".repeat(43)}`;

describe("ApiKeySchema and SessionCredentialSchema", () => {
  it("takes gk_ with 65 characters as a key, and a token or a key as a credential", () => {
    expect(check(ApiKeySchema, key)).toEqual({ ok: true, value: key });
    expect(check(SessionCredentialSchema, key)).toEqual({ ok: true, value: key });
    expect(check(SessionCredentialSchema, token)).toEqual({ ok: true, value: token });
    expect(check(ApiKeySchema, token).ok).toBe(false);
  });

  it("refuses one character more or less, another prefix, and what is not text, saying what a credential looks like", () => {
    for (const bad of [key.slice(0, -1), `${key}x`, `gx_${key.slice(3)}`, `${token}x`, "x".repeat(100_000), 7, null]) {
      const checked = check(SessionCredentialSchema, bad);
      expect(checked.ok === false && checked.error).toMatch(
        /^Invalid workspace token: it should look like gw_… \(46 characters\), or an API key like gk_…/,
      );
    }
    expect(check(ApiKeySchema, key.slice(0, -1))).toEqual({
      ok: false,
      error: "Invalid API key: it should look like gk_… (68 characters), as `gadgets keys create` printed it.",
    });
  });

  it("checks a key id like other ids", () => {
    expect(check(ApiKeyIdSchema, "AbC_-123").ok).toBe(true);
    expect(check(ApiKeyIdSchema, "a/b")).toEqual({
      ok: false,
      error: "Invalid API key id: expected the id string the Workshop gave you (letters, digits, _ and -).",
    });
  });
});

describe("CreateKeyInputSchema", () => {
  const nameMessage = `A key's name must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters (after trimming), without control characters, like "claude-desktop".`;
  const agentsMessage = `agents must be a list of 1 to ${MAX_AGENTS_PER_API_KEY} agent ids or names (or left out: all agents).`;

  it("trims the name and keeps the scope; agents left out or null mean all", () => {
    expect(check(CreateKeyInputSchema, { name: "  claude  ", scope: "call" })).toEqual({
      ok: true,
      value: { name: "claude", scope: "call" },
    });
    expect(check(CreateKeyInputSchema, { name: "b", scope: "full", agents: null })).toEqual({
      ok: true,
      value: { name: "b", scope: "full", agents: null },
    });
    expect(check(CreateKeyInputSchema, { name: "b", scope: "call", agents: ["echo", "AbC_-123"] })).toEqual({
      ok: true,
      value: { name: "b", scope: "call", agents: ["echo", "AbC_-123"] },
    });
  });

  it(`allows a name of ${MAX_API_KEY_NAME_LENGTH} characters and refuses one more, an empty one or one with control characters`, () => {
    expect(check(CreateKeyInputSchema, { name: "n".repeat(MAX_API_KEY_NAME_LENGTH), scope: "call" }).ok).toBe(true);
    for (const name of ["n".repeat(MAX_API_KEY_NAME_LENGTH + 1), "   ", "", "a\u001b[31m", 5])
      expect(check(CreateKeyInputSchema, { name, scope: "call" })).toEqual({ ok: false, error: nameMessage });
  });

  it("refuses a scope it does not know, or none", () => {
    const error = 'scope must be "call" (list and run published agents) or "full" (everything but managing keys).';
    expect(check(CreateKeyInputSchema, { name: "k", scope: "owner" })).toEqual({ ok: false, error });
    expect(check(CreateKeyInputSchema, { name: "k" })).toEqual({ ok: false, error });
  });

  it(`allows ${MAX_AGENTS_PER_API_KEY} agents and refuses one more, an empty list, or a version`, () => {
    const agents = (n: number) => Array.from({ length: n }, (_, i) => `agent-${i}`);
    expect(check(CreateKeyInputSchema, { name: "k", scope: "call", agents: agents(MAX_AGENTS_PER_API_KEY) }).ok).toBe(
      true,
    );
    for (const bad of [agents(MAX_AGENTS_PER_API_KEY + 1), [], "echo"])
      expect(check(CreateKeyInputSchema, { name: "k", scope: "call", agents: bad })).toEqual({
        ok: false,
        error: agentsMessage,
      });
    expect(check(CreateKeyInputSchema, { name: "k", scope: "call", agents: ["echo@2"] })).toEqual({
      ok: false,
      error: 'A key is limited to agents, not versions: use "echo" instead of "echo@2".',
    });
  });

  it("refuses a field it does not know, so a mistyped agents list never means all agents", () => {
    expect(check(CreateKeyInputSchema, { name: "k", scope: "call", agent: ["echo"] })).toEqual({
      ok: false,
      error: 'Unknown field "agent" of createKey; its fields are: name, scope, agents.',
    });
    expect(check(CreateKeyInputSchema, "k")).toEqual({
      ok: false,
      error: 'createKey takes an object like { name: "claude-desktop", scope: "call" }.',
    });
  });
});
