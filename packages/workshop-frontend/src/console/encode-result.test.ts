import { describe, expect, it } from "vitest";
import { encodeResult } from "./encode-result.ts";

describe("encodeResult", () => {
  it("encodes every JSON shape as the console does", () => {
    const encoded = encodeResult({ name: "x", n: 1.5, ok: true, none: null, list: [1, "two"] });
    expect(encoded).toEqual({
      t: "object",
      ctor: "Object",
      size: 5,
      entries: [
        ["name", { t: "string", v: "x" }],
        ["n", { t: "number", v: 1.5 }],
        ["ok", { t: "boolean", v: true }],
        ["none", { t: "null" }],
        [
          "list",
          {
            t: "array",
            length: 2,
            items: [
              { t: "number", v: 1 },
              { t: "string", v: "two" },
            ],
          },
        ],
      ],
    });
  });
});
