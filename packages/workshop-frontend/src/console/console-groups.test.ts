import type { LogLayout } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { withoutClosedGroups } from "./console-groups.ts";
import type { ConsoleEntry } from "./console-store.ts";

let nextId = 1;
const line = (text: string, layout: LogLayout = {}, from?: string): ConsoleEntry => ({
  kind: "log",
  id: nextId++,
  runId: "r",
  level: "log",
  values: [{ t: "string", v: text }],
  t: 0,
  ...layout,
  ...(from ? { from: { runId: from, agent: from } } : {}),
});
const texts = (entries: ConsoleEntry[]) =>
  entries.map((entry) => (entry.kind === "log" && entry.values[0]?.t === "string" ? entry.values[0].v : entry.kind));

const closedLabels =
  (...labels: string[]) =>
  (entry: ConsoleEntry & { kind: "log" }) =>
    entry.values[0]?.t === "string" && labels.includes(entry.values[0].v);

describe("withoutClosedGroups", () => {
  const entries = [
    line("outer", { group: "open" }),
    line("a", { depth: 1 }),
    line("inner", { depth: 1, group: "collapsed" }),
    line("b", { depth: 2 }),
    line("c", { depth: 1 }),
    line("top"),
  ];

  it("shows everything while every group is open", () => {
    expect(texts(withoutClosedGroups(entries, () => false))).toEqual(["outer", "a", "inner", "b", "c", "top"]);
  });

  it("hides a closed group's lines up to its end, its label staying", () => {
    expect(texts(withoutClosedGroups(entries, closedLabels("inner")))).toEqual(["outer", "a", "inner", "c", "top"]);
  });

  it("hides nested groups with the group around them", () => {
    expect(texts(withoutClosedGroups(entries, closedLabels("outer")))).toEqual(["outer", "top"]);
  });

  it("keeps errors, calls and ends in sight inside a closed group", () => {
    const error: ConsoleEntry = {
      kind: "error",
      id: nextId++,
      runId: "r",
      t: 0,
      error: { name: "E", message: "m", stack: "", frames: [] },
    };
    expect(
      texts(withoutClosedGroups([line("g", { group: "open" }), error, line("in", { depth: 1 })], () => true)),
    ).toEqual(["g", "error"]);
  });

  it("nests a called agent's lines apart from the caller's", () => {
    const mixed = [
      line("caller's group", { group: "open" }),
      line("agent's top line", {}, "agent-run"),
      line("caller's inner line", { depth: 1 }),
    ];
    expect(texts(withoutClosedGroups(mixed, () => true))).toEqual(["caller's group", "agent's top line"]);
  });
});
