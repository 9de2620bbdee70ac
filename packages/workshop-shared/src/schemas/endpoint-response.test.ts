import { MAX_ENDPOINT_HEADER_VALUE_CHARS } from "../limits.ts";
import { describe, expect, it } from "vitest";
import { check } from "./check.ts";
import { EndpointResponseSchema } from "./endpoint-response.ts";

describe("EndpointResponseSchema", () => {
  it("accepts a full answer, and one with every field left out", () => {
    const answer = { status: 404, headers: { "content-type": "text/html" }, body: "<p>gone</p>" };
    expect(check(EndpointResponseSchema, answer)).toEqual({ ok: true, value: answer });
    expect(check(EndpointResponseSchema, {})).toEqual({ ok: true, value: {} });
    expect(check(EndpointResponseSchema, { body: { any: ["json"] } }).ok).toBe(true);
  });

  it("refuses what would not make a response, saying what is wrong", () => {
    expect(check(EndpointResponseSchema, [])).toMatchObject({
      ok: false,
      error: expect.stringContaining("must be an object"),
    });
    expect(check(EndpointResponseSchema, { status: "200" })).toMatchObject({
      ok: false,
      error: '"status" must be a whole number from 200 to 599, like 200 or 404.',
    });
    expect(check(EndpointResponseSchema, { headers: [] })).toMatchObject({
      ok: false,
      error: expect.stringContaining('"headers" must be an object'),
    });
    expect(check(EndpointResponseSchema, { status: 304, body: "x" })).toMatchObject({
      ok: false,
      error: 'Status 304 has no body: leave "body" out (or answer another status).',
    });
  });

  it(`allows a header value of ${MAX_ENDPOINT_HEADER_VALUE_CHARS} characters and refuses one more`, () => {
    const value = (n: number) => ({ headers: { link: "a".repeat(n) } });
    expect(check(EndpointResponseSchema, value(MAX_ENDPOINT_HEADER_VALUE_CHARS)).ok).toBe(true);
    expect(check(EndpointResponseSchema, value(MAX_ENDPOINT_HEADER_VALUE_CHARS + 1))).toMatchObject({
      ok: false,
      error: expect.stringContaining(`the limit is ${MAX_ENDPOINT_HEADER_VALUE_CHARS}`),
    });
  });
});
