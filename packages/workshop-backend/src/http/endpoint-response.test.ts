import type { JsonValue, RunErrorKind, RunOutcome } from "@gadgets/workshop-shared/api";
import { MAX_ENDPOINT_RESPONSE_HEADERS } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { endpointResponse, errorAnswer, outcomeAnswer } from "./endpoint-response.ts";

const timings = { queueMs: 0, buildMs: 0, runMs: 1, totalMs: 1 };
const ok = (result: JsonValue): RunOutcome => ({ status: "ok", runId: "r1", result, timings });
const failed = (kind: RunErrorKind, message = "boom", refused?: { inputRefused: true }): RunOutcome => ({
  status: "error",
  runId: "r1",
  kind,
  message,
  ...refused,
  error: { name: "Error", message, stack: "Error: boom\n    at run (index.ts:1:1)", frames: [] },
  timings,
});

describe("outcomeAnswer, json", () => {
  it("answers the result as JSON with 200", () => {
    expect(outcomeAnswer(ok({ a: 1 }), "json")).toEqual({
      status: 200,
      headers: [["content-type", "application/json; charset=utf-8"]],
      body: '{"a":1}',
    });
    expect(outcomeAnswer(ok("hi"), "json").body).toBe('"hi"');
  });

  it.each([
    ["user", 500],
    ["cpu", 500],
    ["memory", 500],
    ["timeout", 504],
    ["busy", 503],
    ["cancelled", 503],
  ] as const)("answers a %s failure with %i and the message only, no stack", (kind, status) => {
    const answer = outcomeAnswer(failed(kind), "json");
    expect(answer.status).toBe(status);
    expect(JSON.parse(answer.body ?? "")).toEqual({ error: { kind, message: "boom" } });
    expect(answer.body).not.toContain("index.ts");
  });

  it("answers 400 with the message for a request the agent refused, and 500 without it when the agent cannot run", () => {
    const refused = outcomeAnswer(
      failed("invalid", 'inputSchema: "body" must be an object', { inputRefused: true }),
      "json",
    );
    expect([refused.status, JSON.parse(refused.body ?? "")]).toEqual([
      400,
      { error: { kind: "invalid", message: 'inputSchema: "body" must be an object' } },
    ]);
    const broken = outcomeAnswer(failed("invalid", "The secret STRIPE_KEY could not be opened"), "json");
    expect(broken.status).toBe(500);
    expect(broken.body).not.toContain("STRIPE_KEY");
    expect(JSON.parse(broken.body ?? "").error.message).toContain("Workshop-Run-Id");
  });

  it("tells a busy caller when to come back", () => {
    expect(outcomeAnswer(failed("busy"), "json").headers).toContainEqual(["retry-after", "1"]);
  });
});

describe("outcomeAnswer, full", () => {
  it("answers the status, headers and body the agent chose", () => {
    const answer = outcomeAnswer(
      ok({ status: 201, headers: { "Content-Type": "text/html", "X-Thing": "1" }, body: "<p>made</p>" }),
      "full",
    );
    expect(answer).toEqual({
      status: 201,
      headers: [
        ["content-type", "text/html"],
        ["x-thing", "1"],
      ],
      body: "<p>made</p>",
    });
  });

  it("defaults to 200, text for a string body, JSON for any other, and nothing without one", () => {
    expect(outcomeAnswer(ok({ body: "plain" }), "full")).toEqual({
      status: 200,
      headers: [["content-type", "text/plain; charset=utf-8"]],
      body: "plain",
    });
    expect(outcomeAnswer(ok({ body: { n: 1 } }), "full").headers).toEqual([
      ["content-type", "application/json; charset=utf-8"],
    ]);
    expect(outcomeAnswer(ok({ status: 204 }), "full")).toEqual({ status: 204, headers: [], body: null });
  });

  it("strips Set-Cookie and framing headers, and the Workshop's own", () => {
    const answer = outcomeAnswer(
      ok({
        headers: {
          "Set-Cookie": "a=1",
          "Content-Length": "9",
          "Transfer-Encoding": "chunked",
          "Workshop-Run-Id": "forged",
          "X-Content-Type-Options": "sniff",
          "X-Kept": "yes",
        },
        body: "x",
      }),
      "full",
    );
    expect(answer.headers).toEqual([
      ["x-kept", "yes"],
      ["content-type", "text/plain; charset=utf-8"],
    ]);
  });

  it.each([
    ["not an object", "hello", 'A "full" endpoint answer must be an object'],
    ["an unknown field", { status: 200, cookies: [] }, 'Unknown field "cookies"'],
    ["a status below 200", { status: 101 }, '"status" must be a whole number from 200 to 599'],
    ["a status past 599", { status: 600 }, '"status" must be a whole number from 200 to 599'],
    ["a fractional status", { status: 200.5 }, '"status" must be a whole number'],
    ["a bad header name", { headers: { "bad name": "x" } }, 'Header name "bad name" is not a valid HTTP header name'],
    ["a header with a line break", { headers: { "x-a": "1\r\nSet-Cookie: a=1" } }, 'Header "x-a" holds a line break'],
    ["a header that is not text", { headers: { "x-a": 1 } }, 'Header "x-a" must have a text value, not number'],
    ["a body with 204", { status: 204, body: "x" }, "Status 204 has no body"],
  ])("answers 502 naming what is wrong for %s", (_, result, message) => {
    const answer = outcomeAnswer(ok(result as JsonValue), "full");
    expect(answer.status).toBe(502);
    const parsed = JSON.parse(answer.body ?? "") as { error: { kind: string; message: string } };
    expect(parsed.error.kind).toBe("bad_response");
    expect(parsed.error.message).toContain(message);
  });

  it(`allows ${MAX_ENDPOINT_RESPONSE_HEADERS} headers and refuses one more`, () => {
    const headers = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`x-h${i}`, "v"]));
    expect(outcomeAnswer(ok({ headers: headers(MAX_ENDPOINT_RESPONSE_HEADERS) }), "full").status).toBe(200);
    const over = outcomeAnswer(ok({ headers: headers(MAX_ENDPOINT_RESPONSE_HEADERS + 1) }), "full");
    expect(over.status).toBe(502);
    expect(over.body).toContain(`the limit is ${MAX_ENDPOINT_RESPONSE_HEADERS}`);
  });

  it("answers a failed run as in json mode", () => {
    expect(outcomeAnswer(failed("timeout"), "full").status).toBe(504);
  });
});

describe("endpointResponse", () => {
  it("sandboxes, forbids sniffing, sets no cookie, names the run and is not cached by default", async () => {
    const response = endpointResponse(
      { status: 200, headers: [["set-cookie", "a=1"]], body: "<script>alert(1)</script>" },
      { runId: "r1", traceResponse: "00-abc-def-01" },
    );
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("set-cookie")).toBeNull();
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("referrer-policy")).toBe("no-referrer");
    expect(response.headers.get("workshop-run-id")).toBe("r1");
    expect(response.headers.get("traceresponse")).toBe("00-abc-def-01");
    expect(await response.text()).toBe("<script>alert(1)</script>");
  });

  it("keeps the gadget's Cache-Control, and its own policy beside the sandbox (policies only narrow)", () => {
    const response = endpointResponse({
      status: 200,
      headers: [
        ["cache-control", "max-age=60"],
        ["content-security-policy", "default-src 'none'"],
      ],
      body: null,
    });
    expect(response.headers.get("cache-control")).toBe("max-age=60");
    expect(response.headers.get("content-security-policy")).toBe("sandbox, default-src 'none'");
  });

  it("answers the Workshop's own errors with the same headers", () => {
    const response = endpointResponse(errorAnswer(404, "not_found", "No endpoint answers at this address."));
    expect(response.status).toBe(404);
    expect(response.headers.get("content-security-policy")).toBe("sandbox");
    expect(response.headers.get("workshop-run-id")).toBeNull();
  });
});
