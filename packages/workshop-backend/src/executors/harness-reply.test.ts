import { MAX_JSON_DEPTH } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import type { HarnessReply } from "../isolate/harness/contract.ts";
import { readHarnessReply } from "./harness-reply.ts";

const arrays = (levels: number) => `${"[".repeat(levels)}0${"]".repeat(levels)}`;

describe("readHarnessReply", () => {
  it("parses the result and keeps the run's tallies", () => {
    expect(readHarnessReply({ status: "ok", json: '{"a":[1]}', eventLines: 3, droppedEvents: 2 })).toEqual({
      status: "ok",
      result: { a: [1] },
      eventLines: 3,
      droppedEvents: 2,
    });
  });

  it(`passes a result ${MAX_JSON_DEPTH} levels deep and ends one more as invalid, whatever the harness let through`, () => {
    expect(readHarnessReply({ status: "ok", json: arrays(MAX_JSON_DEPTH) })).toMatchObject({ status: "ok" });
    expect(readHarnessReply({ status: "ok", json: arrays(300), eventLines: 1 })).toEqual({
      status: "error",
      kind: "invalid",
      error: {
        name: "InvalidResult",
        message: `run() returned JSON nested 300 levels deep; the limit is ${MAX_JSON_DEPTH} levels, as for payloads. Return flatter data.`,
        stack: "",
      },
      eventLines: 1,
      droppedEvents: 0,
    });
    expect(readHarnessReply({ status: "ok", json: arrays(MAX_JSON_DEPTH + 1) })).toMatchObject({ kind: "invalid" });
  });

  it("copies an error as strings and counts as counts, so nothing else in the reply can make it unsendable", () => {
    let deep: unknown = "x";
    for (let i = 0; i < 300; i++) deep = [deep];
    const forged = {
      status: "error",
      kind: "memory",
      error: { name: deep, message: "boom", stack: 7, extra: deep },
      eventLines: -1,
      droppedEvents: 1e300,
      more: deep,
    } as unknown as HarnessReply;
    expect(readHarnessReply(forged)).toEqual({
      status: "error",
      kind: "user",
      error: { name: "Error", message: "boom", stack: "" },
      eventLines: 0,
      droppedEvents: 0,
    });
  });
});
