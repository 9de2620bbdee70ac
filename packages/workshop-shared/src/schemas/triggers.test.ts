import { describe, expect, it } from "vitest";
import { check } from "./check.ts";
import { HttpTriggerSchema } from "./triggers.ts";

describe("HttpTriggerSchema", () => {
  it('takes body "json" or "text", and names the choices for anything else', () => {
    expect(check(HttpTriggerSchema, { body: "text" })).toEqual({ ok: true, value: { body: "text" } });
    expect(check(HttpTriggerSchema, { body: "json", response: "full" }).ok).toBe(true);
    expect(check(HttpTriggerSchema, { body: "raw" })).toEqual({
      ok: false,
      error:
        '"triggers.http.body" must be "json" (the default: a JSON body parsed) or "text" (every body as sent, to check a signature).',
    });
    expect(check(HttpTriggerSchema, { bodyMode: "text" })).toEqual({
      ok: false,
      error: 'Unknown field "triggers.http.bodyMode": the fields are "name", "response" and "body".',
    });
  });
});
