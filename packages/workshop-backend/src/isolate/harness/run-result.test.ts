import { MAX_RESULT_BYTES } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { toResult } from "./run-result.ts";

const describeThrown = (thrown: unknown) => ({ name: "E", message: String(thrown), stack: "" });

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
});
