import { describe, expect, it } from "vitest";
import { OutputTail } from "./output-tail.ts";

describe("OutputTail", () => {
  it("keeps the last lines, cut, with control characters made visible and tabs kept", () => {
    const tail = new OutputTail(2);
    tail.push("first");
    tail.push("\u001b[31mred\u001b[0m\tand\u0000\u007f😀");
    tail.push("x".repeat(3000));
    expect(tail.text()).toBe(`�[31mred�[0m\tand��😀\n${"x".repeat(2000)}`);
  });
});
