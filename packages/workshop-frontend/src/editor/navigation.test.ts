import type { ErrorGroup, GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { toProblem } from "../problems/problems.ts";
import { frameDraft, openingOf } from "./navigation.ts";

const manifest = (entry: string): GadgetFile => ({
  path: "gadget.json",
  content: JSON.stringify({ name: "g", entry }),
});
const frame = { fn: "run", file: "util.ts", line: 4, column: 9 };

describe("openingOf", () => {
  it("opens a draft at its entry, or at its manifest when that does not parse", () => {
    expect(openingOf([manifest("main.ts"), { path: "main.ts", content: "" }])).toEqual({ path: "main.ts" });
    expect(openingOf([{ path: "gadget.json", content: "{" }])).toEqual({ path: "gadget.json" });
  });

  it("opens at a clicked frame instead, with the cursor on its line", () => {
    expect(openingOf([manifest("index.ts")], frame)).toEqual({
      path: "util.ts",
      reveal: { path: "util.ts", line: 4, column: 9 },
    });
  });
});

describe("frameDraft", () => {
  const group = (source: string): ErrorGroup => ({
    fingerprint: "f",
    name: "Error",
    message: "m",
    count: 1,
    firstSeen: 0,
    lastSeen: 0,
    lastContext: { source },
    sampleStack: "",
  });

  it("switches to the draft a problem came from when another is open", () => {
    expect(frameDraft(toProblem(group("draft:d2")), "d1")).toEqual({ kind: "other-draft", draftId: "d2" });
  });

  it("stays in the open draft for its own problems and for published agents'", () => {
    expect(frameDraft(toProblem(group("draft:d1")), "d1")).toEqual({ kind: "open-draft" });
    expect(frameDraft(toProblem(group("agent:a1")), "d1")).toEqual({ kind: "open-draft" });
  });
});
