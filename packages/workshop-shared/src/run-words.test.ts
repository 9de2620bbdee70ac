import { describe, expect, it } from "vitest";
import {
  durationWords,
  outcomeTitle,
  outcomeWords,
  outcomeWordsOf,
  RUN_KIND_WORDS,
  triggerWords,
} from "./run-words.ts";
import type { RunErrorKind } from "./wire-basics.ts";

describe("outcomeWords", () => {
  it("says every error kind in plain words, and an unknown one as it came", () => {
    for (const [kind, text] of Object.entries(RUN_KIND_WORDS))
      expect(outcomeWords({ status: "error", kind: kind as RunErrorKind })).toBe(text);
    expect(outcomeWords({ status: "ok" })).toBe("ok");
    expect(outcomeWords({ status: "error", kind: "novel" as RunErrorKind })).toBe("novel");
    expect(outcomeWords({ status: "error", kind: "toString" as RunErrorKind })).toBe("toString");
    expect(outcomeWords({ status: "error" })).toBe("error");
  });
});

describe("outcomeWordsOf", () => {
  it("says a build failure and a timeout's limit from the outcome's message", () => {
    const build = "The gadget does not build: index.ts:1:7 Unexpected token";
    expect(outcomeWordsOf({ status: "error", kind: "invalid", message: build })).toBe("doesn't build");
    expect(outcomeWordsOf({ status: "error", kind: "invalid", message: "The payload is not JSON." })).toBe(
      "invalid input or result",
    );
    const timeout = "The run took longer than 2000 ms and was stopped. Look for a loop.";
    expect(outcomeWordsOf({ status: "error", kind: "timeout", message: timeout })).toBe("timed out (2 s)");
    expect(outcomeWordsOf({ status: "error", kind: "timeout", message: "The run took longer than its limit" })).toBe(
      "timed out",
    );
    expect(outcomeWordsOf({ status: "error", kind: "user", message: build })).toBe("threw");
    expect(outcomeWordsOf({ status: "ok" })).toBe("ok");
  });

  it("puts the internal kind in the tooltip", () => {
    expect(outcomeTitle({ status: "error", kind: "memory" })).toBe("kind: memory");
    expect(outcomeTitle({ status: "ok" })).toBe("kind: ok");
  });

  it("says durations in seconds from one second on", () => {
    expect([durationWords(800), durationWords(2000), durationWords(1500)]).toEqual(["800 ms", "2 s", "1.5 s"]);
  });
});

describe("triggerWords", () => {
  it("says an HTTP request with the status answered, and a schedule with its slot", () => {
    const iso = (at: number) => new Date(at).toISOString();
    expect(triggerWords({ kind: "http", method: "POST", path: "/hook/:id", status: 201 }, iso)).toBe(
      "POST /hook/:id → 201",
    );
    expect(
      triggerWords({ kind: "schedule", schedule: "every 10m", scheduledAt: Date.UTC(2026, 0, 2, 3, 40) }, iso),
    ).toBe("every 10m, slot 2026-01-02T03:40:00.000Z");
  });
});
