import { describe, expect, it } from "vitest";
import { FairScheduler } from "./fair-scheduler.ts";

describe("the fair scheduler", () => {
  it("admits up to the per-workspace cap (running and waiting together) and refuses the next as the workspace's", () => {
    const scheduler = new FairScheduler<string>({ perWorkspace: 3, total: 10 });
    for (let i = 0; i < 3; i++) expect(scheduler.admit("a")).toBeUndefined();
    expect(scheduler.admit("a")).toBe("workspace");
    // Another workspace is not refused by a's cap.
    expect(scheduler.admit("b")).toBeUndefined();
    scheduler.finish("a");
    expect(scheduler.admit("a")).toBeUndefined();
  });

  it("refuses past the total as the server's, whoever asks", () => {
    const scheduler = new FairScheduler<string>({ perWorkspace: 5, total: 4 });
    for (const workspace of ["a", "a", "b", "c"]) expect(scheduler.admit(workspace)).toBeUndefined();
    expect(scheduler.admit("d")).toBe("server");
    expect(scheduler.total).toBe(4);
    scheduler.finish("c");
    expect(scheduler.admit("d")).toBeUndefined();
  });

  it("serves workspaces in turns, however many runs one of them queued", () => {
    const scheduler = new FairScheduler<string>({ perWorkspace: 100, total: 100 });
    for (let i = 0; i < 5; i++) scheduler.enqueue("a", `a${i}`);
    scheduler.enqueue("b", "b0");
    scheduler.enqueue("b", "b1");
    scheduler.enqueue("c", "c0");
    const order: string[] = [];
    for (let next = scheduler.next(() => true); next; next = scheduler.next(() => true)) order.push(next.item);
    expect(order).toEqual(["a0", "b0", "c0", "a1", "b1", "a2", "a3", "a4"]);
    expect(scheduler.waiting).toBe(0);
  });

  it("skips a workspace that cannot start now without losing its place in its own queue", () => {
    const scheduler = new FairScheduler<string>({ perWorkspace: 100, total: 100 });
    scheduler.enqueue("a", "a0");
    scheduler.enqueue("b", "b0");
    expect(scheduler.next((workspace) => workspace === "b")?.item).toBe("b0");
    expect(scheduler.next((workspace) => workspace === "b")).toBeUndefined();
    expect(scheduler.next(() => true)?.item).toBe("a0");
  });

  it("removes a waiting run (cancelled or waited too long) once", () => {
    const scheduler = new FairScheduler<string>({ perWorkspace: 100, total: 100 });
    scheduler.enqueue("a", "a0");
    scheduler.enqueue("a", "a1");
    expect(scheduler.remove("a", "a0")).toBe(true);
    expect(scheduler.remove("a", "a0")).toBe(false);
    expect(scheduler.waitingWorkspaces()).toEqual(["a"]);
    expect(scheduler.clear()).toEqual(["a1"]);
    expect(scheduler.waiting).toBe(0);
  });
});
