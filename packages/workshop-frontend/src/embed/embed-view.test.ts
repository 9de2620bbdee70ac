import type { GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { panesOf, shownPath } from "./embed-view.ts";

const files: GadgetFile[] = [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "main.ts" }) },
  { path: "main.ts", content: "" },
  { path: "util.ts", content: "" },
];

describe("shownPath", () => {
  it("shows the reader's pick, else the host's file, else the entry", () => {
    expect(shownPath(files, "util.ts", "gadget.json")).toBe("util.ts");
    expect(shownPath(files, undefined, "util.ts")).toBe("util.ts");
    expect(shownPath(files, undefined, undefined)).toBe("main.ts");
  });

  it("skips files that are not there", () => {
    expect(shownPath(files, "gone.ts", "missing.ts")).toBe("main.ts");
  });

  it("falls back to the manifest when it does not parse", () => {
    expect(shownPath([{ path: "gadget.json", content: "{" }], undefined, undefined)).toBe("gadget.json");
  });
});

describe("panesOf", () => {
  it("shows both panes by default, one when view picks it, and hides the console when asked", () => {
    expect(panesOf({ view: "both", console: "show" })).toEqual({ editor: true, console: true });
    expect(panesOf({ view: "editor", console: "show" })).toEqual({ editor: true, console: false });
    expect(panesOf({ view: "console", console: "show" })).toEqual({ editor: false, console: true });
    expect(panesOf({ view: "both", console: "hide" })).toEqual({ editor: true, console: false });
  });
});
