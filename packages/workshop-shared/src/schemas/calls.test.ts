import { describe, expect, it } from "vitest";
import { MAX_AGENT_REF_LENGTH, MAX_LIST_LIMIT, MAX_RUN_TIMEOUT_MS } from "../limits.ts";
import {
  AgentRefSchema,
  CreateDraftInputSchema,
  DraftIdSchema,
  ListLimitSchema,
  PublishOptionsSchema,
  RunOptionsSchema,
  SaveDraftInputSchema,
  SettingsChangesSchema,
  WorkspaceTokenSchema,
} from "./calls.ts";
import { check } from "./check.ts";
import { RunEventListenerSchema, TestResultListenerSchema } from "./listeners.ts";

const files = [
  { path: "gadget.json", content: '{"name":"g","entry":"index.ts"}' },
  { path: "index.ts", content: "export default { async run() {} };" },
];

describe("ids and tokens", () => {
  it("accepts an id the Workshop hands out and refuses anything else, naming the id", () => {
    expect(check(DraftIdSchema, "AbC_-123")).toEqual({ ok: true, value: "AbC_-123" });
    for (const bad of ["", "a/b", "x".repeat(65), 7, null])
      expect(check(DraftIdSchema, bad)).toEqual({
        ok: false,
        error: "Invalid draft id: expected the id string the Workshop gave you (letters, digits, _ and -).",
      });
  });

  it("accepts gw_ with 43 characters and nothing else", () => {
    expect(check(WorkspaceTokenSchema, `gw_${"A".repeat(43)}`).ok).toBe(true);
    for (const bad of [`gw_${"A".repeat(42)}`, `gw_${"A".repeat(44)}`, "x".repeat(100_000), undefined]) {
      const checked = check(WorkspaceTokenSchema, bad);
      expect(checked.ok === false && checked.error).toMatch(/^Invalid workspace token: it should look like gw_…/);
    }
  });
});

describe("AgentRefSchema", () => {
  it("splits a reference into its base and version", () => {
    expect(check(AgentRefSchema, "echo")).toEqual({
      ok: true,
      value: { ref: "echo", base: "echo", version: undefined },
    });
    expect(check(AgentRefSchema, "echo@12")).toEqual({
      ok: true,
      value: { ref: "echo@12", base: "echo", version: 12 },
    });
  });

  it("refuses a version that is not a positive whole number", () => {
    expect(check(AgentRefSchema, "echo@0")).toEqual({
      ok: false,
      error: 'Invalid agent version in "echo@0": use a positive whole number, like echo@2.',
    });
  });

  it("allows MAX_AGENT_REF_LENGTH characters and refuses one more, or a reference that is not text", () => {
    const message = "An agent reference must be its id or name, optionally with @version (like echo@2).";
    expect(check(AgentRefSchema, "a".repeat(MAX_AGENT_REF_LENGTH)).ok).toBe(true);
    expect(check(AgentRefSchema, "a".repeat(MAX_AGENT_REF_LENGTH + 1))).toEqual({ ok: false, error: message });
    expect(check(AgentRefSchema, "")).toEqual({ ok: false, error: message });
    expect(check(AgentRefSchema, 42)).toEqual({ ok: false, error: message });
  });
});

describe("RunOptionsSchema", () => {
  it("takes a timeout within the server's maximum, and ignores keys it does not know", () => {
    expect(check(RunOptionsSchema, { timeoutMs: MAX_RUN_TIMEOUT_MS, later: true })).toEqual({
      ok: true,
      value: { timeoutMs: MAX_RUN_TIMEOUT_MS },
    });
    expect(check(RunOptionsSchema, { timeoutMs: MAX_RUN_TIMEOUT_MS + 1 })).toEqual({
      ok: false,
      error: `timeoutMs must be a whole number of milliseconds from 1 to ${MAX_RUN_TIMEOUT_MS} (the server's maximum).`,
    });
  });

  it("reads left-out and null options as none, and refuses options that are not an object", () => {
    expect(check(RunOptionsSchema, undefined)).toEqual({ ok: true, value: undefined });
    expect(check(RunOptionsSchema, null)).toEqual({ ok: true, value: undefined });
    expect(check(RunOptionsSchema, 5000)).toEqual({
      ok: false,
      error: "Run options must be an object like { timeoutMs: 5000 } (or left out).",
    });
  });
});

describe("callbacks", () => {
  it.each([
    [RunEventListenerSchema, "onEvent"],
    [TestResultListenerSchema, "onResult"],
  ])("read left out, undefined and null as none, and refuse anything but a function (%#)", (schema, name) => {
    const listener = () => {};
    expect(check(schema, listener)).toEqual({ ok: true, value: listener });
    expect(check(schema, undefined)).toEqual({ ok: true, value: undefined });
    expect(check(schema, null)).toEqual({ ok: true, value: undefined });
    expect(check(schema, "not a function")).toEqual({
      ok: false,
      error: `${name} must be a function (or left out).`,
    });
  });
});

describe("draft input", () => {
  it("takes { files } for createDraft, and names files when the input is missing", () => {
    expect(check(CreateDraftInputSchema, { files })).toEqual({ ok: true, value: { files } });
    expect(check(CreateDraftInputSchema, null)).toEqual({
      ok: false,
      error: "files must be an array of { path, content }.",
    });
    expect(check(CreateDraftInputSchema, "files")).toEqual({
      ok: false,
      error: "createDraft takes an object { files: [{ path, content }] }.",
    });
  });

  it("takes { baseVersion, files } for saveDraft", () => {
    expect(check(SaveDraftInputSchema, { baseVersion: 1, files })).toEqual({
      ok: true,
      value: { baseVersion: 1, files },
    });
    for (const baseVersion of [0, 1.5, "1", undefined])
      expect(check(SaveDraftInputSchema, { baseVersion, files })).toEqual({
        ok: false,
        error: "baseVersion must be the draft version your edit started from (a positive whole number).",
      });
  });
});

describe("SettingsChangesSchema", () => {
  it("takes any of the settings", () => {
    expect(check(SettingsChangesSchema, { runTimeoutMs: 5000 })).toEqual({ ok: true, value: { runTimeoutMs: 5000 } });
    expect(check(SettingsChangesSchema, { fetchHosts: null })).toEqual({ ok: true, value: { fetchHosts: null } });
    expect(check(SettingsChangesSchema, { fetchHosts: ["api.example.com"] }).ok).toBe(true);
  });

  it.each([
    [null, "updateSettings takes an object like { runTimeoutMs: 5000 }."],
    [{ theme: "dark" }, 'Unknown setting "theme"; the settings are: runTimeoutMs, fetchHosts.'],
    [{ fetchHosts: "a.com" }, "fetchHosts must be null (no cap) or a list of at most 32 hosts."],
    [
      { runTimeoutMs: 0 },
      "runTimeoutMs must be a whole number of milliseconds from 1 to 30000 (the server's maximum).",
    ],
  ])("refuses %j: %s", (changes, message) => {
    expect(check(SettingsChangesSchema, changes)).toEqual({ ok: false, error: message });
  });
});

describe("PublishOptionsSchema", () => {
  it("takes { overrideTests }, or none", () => {
    expect(check(PublishOptionsSchema, { overrideTests: true })).toEqual({ ok: true, value: { overrideTests: true } });
    expect(check(PublishOptionsSchema, null)).toEqual({ ok: true, value: undefined });
    expect(check(PublishOptionsSchema, { overrideTests: "yes" })).toEqual({
      ok: false,
      error: "overrideTests must be true or false.",
    });
    expect(check(PublishOptionsSchema, [])).toEqual({
      ok: false,
      error: "publishDraft options must be an object like { overrideTests: true } (or left out).",
    });
  });
});

describe("ListLimitSchema", () => {
  it("is 50 when left out, allows MAX_LIST_LIMIT and refuses one more", () => {
    expect(check(ListLimitSchema, undefined)).toEqual({ ok: true, value: 50 });
    expect(check(ListLimitSchema, null)).toEqual({ ok: true, value: 50 });
    expect(check(ListLimitSchema, MAX_LIST_LIMIT)).toEqual({ ok: true, value: MAX_LIST_LIMIT });
    expect(check(ListLimitSchema, MAX_LIST_LIMIT + 1)).toEqual({
      ok: false,
      error: `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}.`,
    });
  });
});
