import { describe, expect, it } from "vitest";
import { treeKeyAction } from "./tree-keys.ts";

const collapsed = { expandable: true, expanded: false, hasParent: true };
const expanded = { expandable: true, expanded: true, hasParent: true };
const leaf = { expandable: false, expanded: false, hasParent: true };
const root = { expandable: true, expanded: false, hasParent: false };

describe("treeKeyAction", () => {
  it("moves between visible items with the arrows, Home and End", () => {
    expect(treeKeyAction("ArrowDown", leaf)).toEqual({ kind: "move", to: "next" });
    expect(treeKeyAction("ArrowUp", leaf)).toEqual({ kind: "move", to: "previous" });
    expect(treeKeyAction("Home", leaf)).toEqual({ kind: "move", to: "first" });
    expect(treeKeyAction("End", leaf)).toEqual({ kind: "move", to: "last" });
  });

  it("opens a closed item with ArrowRight, then goes into it", () => {
    expect(treeKeyAction("ArrowRight", collapsed)).toEqual({ kind: "toggle" });
    expect(treeKeyAction("ArrowRight", expanded)).toEqual({ kind: "move", to: "first-child" });
    expect(treeKeyAction("ArrowRight", leaf)).toEqual({ kind: "none" });
  });

  it("closes an open item with ArrowLeft, else goes to its parent; the root has none", () => {
    expect(treeKeyAction("ArrowLeft", expanded)).toEqual({ kind: "toggle" });
    expect(treeKeyAction("ArrowLeft", leaf)).toEqual({ kind: "move", to: "parent" });
    expect(treeKeyAction("ArrowLeft", root)).toEqual({ kind: "none" });
  });

  it("toggles an expandable item with Enter and Space, and leaves other keys to the page", () => {
    expect(treeKeyAction("Enter", collapsed)).toEqual({ kind: "toggle" });
    expect(treeKeyAction(" ", expanded)).toEqual({ kind: "toggle" });
    expect(treeKeyAction("Enter", leaf)).toEqual({ kind: "none" });
    expect(treeKeyAction("Tab", collapsed)).toEqual({ kind: "none" });
    expect(treeKeyAction("a", collapsed)).toEqual({ kind: "none" });
  });
});
