import type { GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it, vi } from "vitest";
import { formatAndSave } from "./format-and-save.ts";

function editorOf(files: GadgetFile[]) {
  const saved: GadgetFile[][] = [];
  const editor = {
    files,
    file: (path: string) => editor.files.find((file) => file.path === path),
    update: (path: string, content: string) => {
      editor.files = editor.files.map((file) => (file.path === path ? { path, content } : file));
    },
    saveNow: vi.fn(async () => {
      saved.push(editor.files);
      return { status: "saved", version: 1 } as const;
    }),
  };
  return { editor, saved };
}

describe("formatAndSave", () => {
  it("saves the file as formatted", async () => {
    const { editor, saved } = editorOf([{ path: "index.ts", content: "let  x=1" }]);
    expect(await formatAndSave(editor, "index.ts", async (_path, content) => content.replace(/\s+/g, " "))).toBe(
      undefined,
    );
    expect(saved).toEqual([[{ path: "index.ts", content: "let x=1" }]]);
  });

  it("saves code the formatter refuses as it is, and says why in one line", async () => {
    const { editor, saved } = editorOf([{ path: "index.ts", content: "let (" }]);
    const refuse = async () => {
      throw new SyntaxError("')' expected. (1:6)\n> 1 | let (");
    };
    expect(await formatAndSave(editor, "index.ts", refuse)).toBe("Not formatted: ')' expected. (1:6)");
    expect(saved).toEqual([[{ path: "index.ts", content: "let (" }]]);
  });

  it("still saves when the file is gone", async () => {
    const { editor } = editorOf([]);
    await formatAndSave(editor, "index.ts", async (_path, content) => content);
    expect(editor.saveNow).toHaveBeenCalledOnce();
  });
});
