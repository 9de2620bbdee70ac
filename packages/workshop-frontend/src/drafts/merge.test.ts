import { describe, expect, it } from "vitest";
import { mergedFiles, mergePairs } from "./merge.ts";

describe("merge", () => {
  const mine = [
    { path: "gadget.json", content: "{}" },
    { path: "index.ts", content: "mine" },
    { path: "mine-only.ts", content: "new here" },
  ];
  const theirs = [
    { path: "gadget.json", content: "{}" },
    { path: "index.ts", content: "theirs" },
    { path: "theirs-only.ts", content: "new there" },
  ];

  it("pairs every file of both sides and marks the ones that differ", () => {
    expect(mergePairs(mine, theirs)).toEqual([
      { path: "gadget.json", theirs: "{}", mine: "{}", differs: false },
      { path: "index.ts", theirs: "theirs", mine: "mine", differs: true },
      { path: "mine-only.ts", theirs: "", mine: "new here", differs: true },
      { path: "theirs-only.ts", theirs: "new there", mine: "new there", differs: true },
    ]);
  });

  it("saves the merged text where edited and keeps every other file", () => {
    const pairs = mergePairs(mine, theirs);
    expect(mergedFiles(pairs, new Map([["index.ts", "theirs\nmine"]]))).toEqual([
      { path: "gadget.json", content: "{}" },
      { path: "index.ts", content: "theirs\nmine" },
      { path: "mine-only.ts", content: "new here" },
      { path: "theirs-only.ts", content: "new there" },
    ]);
  });
});
