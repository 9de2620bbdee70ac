import { type GadgetFile, type RunOutcome, TESTS_PATH } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { addRunAsTestCase } from "./test-from-run.ts";

/** The editor's file operations over a plain list. */
function editorOf(files: GadgetFile[]) {
  return {
    files,
    file(path: string) {
      return this.files.find((file) => file.path === path);
    },
    update(path: string, content: string) {
      this.files = this.files.map((file) => (file.path === path ? { path, content } : file));
    },
    addFile(path: string, content = "") {
      this.files = [...this.files, { path, content }];
      return { ok: true } as const;
    },
  };
}

const ok: RunOutcome = {
  status: "ok",
  runId: "r",
  result: "Echo: hi",
  timings: { queueMs: 0, buildMs: 0, runMs: 1, totalMs: 1 },
};
const testsOf = (editor: { files: GadgetFile[] }) =>
  JSON.parse(editor.files.find((file) => file.path === TESTS_PATH)?.content ?? "{}").tests;

describe("addRunAsTestCase", () => {
  it("creates the test file with the run as its first case", () => {
    const editor = editorOf([{ path: "index.ts", content: "" }]);
    const added = addRunAsTestCase(editor, { payload: { input: "hi" }, outcome: ok });
    expect(added).toEqual({ ok: true, notice: expect.stringContaining(TESTS_PATH) });
    expect(testsOf(editor)).toEqual([
      { name: "case", input: { input: "hi" }, expect: { outcome: "ok", equals: "Echo: hi" } },
    ]);
  });

  it("appends to an existing file under a name of its own", () => {
    const editor = editorOf([]);
    addRunAsTestCase(editor, { payload: 1, outcome: ok });
    addRunAsTestCase(editor, { payload: 2, outcome: ok });
    expect(testsOf(editor).map((test: { name: string }) => test.name)).toEqual(["case", "case (2)"]);
  });

  it("leaves a test file that does not parse as it is, and says so", () => {
    const editor = editorOf([{ path: TESTS_PATH, content: "{ broken" }]);
    const added = addRunAsTestCase(editor, { payload: 1, outcome: ok });
    expect(added.ok).toBe(false);
    expect(editor.files[0]?.content).toBe("{ broken");
  });
});
