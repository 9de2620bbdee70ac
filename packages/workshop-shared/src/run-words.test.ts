import { describe, expect, it } from "vitest";
import { outcomeWords, RUN_KIND_WORDS, triggerWords } from "./run-words.ts";
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
