import { describe, expect, it } from "vitest";
import { describeThrown } from "./describe-thrown.ts";

describe("describeThrown", () => {
  it("keeps an Error's name, message and stack", () => {
    const error = new TypeError("bad");
    expect(describeThrown(error)).toEqual({ name: "TypeError", message: "bad", stack: String(error.stack) });
  });

  it("cuts long fields: name to 200, message to 10000, stack to 20000 characters", () => {
    const error = new Error("m".repeat(10_001));
    error.name = "n".repeat(201);
    error.stack = "s".repeat(20_001);
    const described = describeThrown(error);
    expect([described.name.length, described.message.length, described.stack.length]).toEqual([200, 10_000, 20_000]);
  });

  it("encodes a thrown value that is no Error", () => {
    expect(describeThrown({ code: 7 })).toEqual({
      name: "Thrown",
      message:
        'a non-Error value was thrown: {"t":"object","ctor":"Object","entries":[["code",{"t":"number","v":7}]],"size":1}',
      stack: "",
    });
    expect(describeThrown("text").message).toBe('a non-Error value was thrown: {"t":"string","v":"text"}');
  });

  it("says so when reading the thrown value throws", () => {
    const hostile = Object.create(Error.prototype, {
      name: {
        get() {
          throw new Error("no name");
        },
      },
    });
    expect(describeThrown(hostile)).toEqual({ name: "Thrown", message: "an unprintable value was thrown", stack: "" });
  });
});
