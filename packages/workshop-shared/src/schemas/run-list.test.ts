import { describe, expect, it } from "vitest";
import { MAX_ID_LENGTH, MAX_NAME_LENGTH } from "../limits.ts";
import { check } from "./check.ts";
import { RunListFilterSchema, RunViaSchema } from "./run-list.ts";

const AGENT_MAX = Math.max(MAX_ID_LENGTH, MAX_NAME_LENGTH);

describe("RunListFilterSchema", () => {
  it("reads a filter left out, undefined or null as none, and null fields as none", () => {
    for (const none of [undefined, null])
      expect(check(RunListFilterSchema, none)).toEqual({ ok: true, value: undefined });
    expect(check(RunListFilterSchema, {})).toEqual({ ok: true, value: {} });
    expect(check(RunListFilterSchema, { agent: null, via: null })).toEqual({
      ok: true,
      value: { agent: null, via: null },
    });
  });

  it("takes an agent's id or name and each way a run starts", () => {
    expect(check(RunListFilterSchema, { agent: "weather", via: "http" })).toEqual({
      ok: true,
      value: { agent: "weather", via: "http" },
    });
    for (const via of ["rpc", "mcp", "http", "schedule"]) expect(check(RunViaSchema, via).ok).toBe(true);
  });

  it(`takes an agent of ${AGENT_MAX} characters and refuses one more, an empty one, a version or what is not text`, () => {
    expect(check(RunListFilterSchema, { agent: "a".repeat(AGENT_MAX) }).ok).toBe(true);
    for (const agent of ["a".repeat(AGENT_MAX + 1), "", "weather@2", 7]) {
      const checked = check(RunListFilterSchema, { agent });
      expect(checked.ok === false && checked.error).toMatch(
        /^The filter's "agent" must be a published agent's id or name/,
      );
    }
  });

  it(`takes a draft's id of ${MAX_ID_LENGTH} characters and refuses one more, an empty one or what is not text`, () => {
    expect(check(RunListFilterSchema, { draft: "d".repeat(MAX_ID_LENGTH) })).toEqual({
      ok: true,
      value: { draft: "d".repeat(MAX_ID_LENGTH) },
    });
    for (const draft of ["d".repeat(MAX_ID_LENGTH + 1), "", 7]) {
      const checked = check(RunListFilterSchema, { draft });
      expect(checked.ok === false && checked.error).toMatch(/^The filter's "draft" must be a draft's id/);
    }
  });

  it("refuses an unknown way, naming the field and the ways there are", () => {
    expect(check(RunListFilterSchema, { via: "email" })).toEqual({
      ok: false,
      error: 'The filter\'s "via" must be one of "rpc", "mcp", "http", "schedule" (or left out: runs started any way).',
    });
  });

  it("refuses a field it does not know (a typo must not list every run) and a filter that is not an object", () => {
    expect(check(RunListFilterSchema, { agnet: "weather" })).toEqual({
      ok: false,
      error: 'Unknown field "agnet" of the listRuns filter; its fields are: agent, draft, via.',
    });
    for (const bad of ["weather", ["weather"], 3])
      expect(check(RunListFilterSchema, bad)).toEqual({
        ok: false,
        error: 'The filter of listRuns must be an object like { agent: "weather", via: "http" } (or left out).',
      });
  });
});
