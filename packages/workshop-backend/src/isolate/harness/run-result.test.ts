import { MAX_JSON_DEPTH, MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { toResult } from "./run-result.ts";

const describeThrown = (thrown: unknown) => ({ name: "E", message: String(thrown), stack: "" });

/** A value inside `levels` arrays and objects, taking turns. */
function nested(levels: number): unknown {
  let value: unknown = "bottom";
  for (let i = 0; i < levels; i++) value = i % 2 === 0 ? [value] : { down: value };
  return value;
}

describe("toResult", () => {
  it("hands back the result as JSON text, undefined as null", () => {
    expect(toResult({ a: [1, "b"] }, describeThrown)).toEqual({ status: "ok", json: '{"a":[1,"b"]}' });
    expect(toResult(undefined, describeThrown)).toEqual({ status: "ok", json: "null" });
  });

  it("refuses a value JSON cannot hold, saying why", () => {
    expect(toResult(1n, describeThrown)).toMatchObject({
      status: "error",
      kind: "invalid",
      error: {
        name: "InvalidResult",
        message: expect.stringMatching(/^run\(\) returned a value that is not JSON \(TypeError: .*BigInt/),
      },
    });
    expect(toResult(() => 1, describeThrown)).toMatchObject({
      kind: "invalid",
      error: { message: "run() returned a function, which is not JSON. Return plain data." },
    });
  });

  it(`hands back ${MAX_RESULT_BYTES} bytes of JSON and refuses one more`, () => {
    const atLimit = "x".repeat(MAX_RESULT_BYTES - 2);
    expect(toResult(atLimit, describeThrown)).toMatchObject({ status: "ok" });
    expect(toResult(`${atLimit}x`, describeThrown)).toMatchObject({
      kind: "invalid",
      error: {
        message: `run() returned ${MAX_RESULT_BYTES + 1} bytes of JSON; the limit is ${MAX_RESULT_BYTES}. Return less data.`,
      },
    });
  });

  it(`hands back a result nested ${MAX_JSON_DEPTH} levels deep and refuses one more, naming the limit`, () => {
    expect(toResult(nested(MAX_JSON_DEPTH), describeThrown)).toMatchObject({ status: "ok" });
    expect(toResult(nested(MAX_JSON_DEPTH + 1), describeThrown)).toEqual({
      status: "error",
      kind: "invalid",
      error: {
        name: "InvalidResult",
        message: `run() returned JSON nested ${MAX_JSON_DEPTH + 1} levels deep; the limit is ${MAX_JSON_DEPTH} levels, as for payloads. Return flatter data.`,
        stack: "",
      },
    });
  });

  it("refuses a short but very deep result, as small as 600 bytes", () => {
    const outcome = toResult(nested(300), describeThrown);
    expect(outcome).toMatchObject({
      kind: "invalid",
      error: { message: expect.stringContaining("nested 300 levels") },
    });
  });
});
