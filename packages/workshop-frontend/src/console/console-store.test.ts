import type { RunEvent } from "@gadgets/workshop-shared";
import { describe, expect, it, vi } from "vitest";
import { ConsoleStore, MAX_CONSOLE_ENTRIES } from "./console-store.ts";

const log = (i: number, level: "log" | "warn" = "log"): Extract<RunEvent, { type: "log" }> => ({
  type: "log",
  runId: "r",
  seq: i,
  t: i,
  level,
  values: [{ t: "number", v: i }],
});

describe("ConsoleStore", () => {
  it("keeps a line's group and table layout, and folds a group when its label is toggled", () => {
    const store = new ConsoleStore();
    store.add({ ...log(1), group: "collapsed" });
    store.add({ ...log(2), depth: 1, table: { columns: ["a"] } });
    store.add(log(3));
    const [label] = store.all();
    expect(store.all()[1]).toMatchObject({ depth: 1, table: { columns: ["a"] } });
    expect(store.visible().map((entry) => entry.id)).toEqual([1, 3]);
    if (label?.kind !== "log") throw new Error("no label");
    expect(store.isGroupClosed(label)).toBe(true);
    store.toggleGroup(label.id);
    expect(store.isGroupClosed(label)).toBe(false);
    expect(store.visible().map((entry) => entry.id)).toEqual([1, 2, 3]);
    store.toggleGroup(label.id);
    expect(store.visible().map((entry) => entry.id)).toEqual([1, 3]);
  });

  it("keeps MAX_CONSOLE_ENTRIES entries and counts one more as dropped", () => {
    const store = new ConsoleStore();
    for (let i = 0; i < MAX_CONSOLE_ENTRIES; i++) store.add(log(i));
    expect([store.all().length, store.droppedByCap]).toEqual([MAX_CONSOLE_ENTRIES, 0]);
    store.add(log(MAX_CONSOLE_ENTRIES));
    expect([store.all().length, store.droppedByCap]).toEqual([MAX_CONSOLE_ENTRIES, 1]);
    expect(store.all()[0]).toMatchObject({ kind: "log", values: [{ v: 1 }] });
  });

  it("filters by level without losing entries", () => {
    const store = new ConsoleStore();
    store.startRun("r", "echo");
    store.add(log(1));
    store.add(log(2, "warn"));
    store.setFilter({ ...store.filter, log: false });
    expect(store.visible().map((entry) => entry.kind)).toEqual(["run-start", "log"]);
    store.setFilter({ ...store.filter, log: true });
    expect(store.visible()).toHaveLength(3);
  });

  it("tells listeners about a burst of entries once, not once per entry", async () => {
    const store = new ConsoleStore();
    const listener = vi.fn();
    store.subscribe(listener);
    for (let i = 0; i < 1000; i++) store.add(log(i));
    expect(listener).not.toHaveBeenCalled();
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it("ignores status events and clears everything on clear()", () => {
    const store = new ConsoleStore();
    store.add({ type: "status", runId: "r", seq: 0, t: 0, status: "running" });
    expect(store.all()).toHaveLength(0);
    store.add(log(1));
    store.clear();
    expect([store.all().length, store.droppedByCap]).toEqual([0, 0]);
  });
});
