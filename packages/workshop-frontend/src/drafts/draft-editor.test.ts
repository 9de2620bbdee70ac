import type { Draft, SaveDraftInput, SaveOutcome } from "@gadgets/workshop-shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { AUTOSAVE_DELAY_MS, DraftEditor } from "./draft-editor.ts";

const draft = (version: number, text = "v1"): Draft => ({
  id: "d1",
  name: "g",
  version,
  createdAt: 0,
  updatedAt: 0,
  files: [
    { path: "gadget.json", content: '{"name":"g","entry":"index.ts"}' },
    { path: "index.ts", content: text },
  ],
});

/** A server with one draft and version checks, like the workspace store. */
function server(start: Draft) {
  let current = start;
  const saves: SaveDraftInput[] = [];
  const save = vi.fn(async (_id: string, input: SaveDraftInput): Promise<SaveOutcome> => {
    saves.push(input);
    if (input.baseVersion !== current.version) return { status: "conflict", current, message: "changed elsewhere" };
    current = { ...current, version: current.version + 1, files: input.files };
    return { status: "saved", draft: current };
  });
  return {
    save,
    saves,
    current: () => current,
    edit: (text: string) => (current = { ...current, version: current.version + 1, files: draft(0, text).files }),
  };
}

class MemoryStorage {
  readonly map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, value);
  removeItem = (key: string) => void this.map.delete(key);
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("DraftEditor", () => {
  it("autosaves once after typing stops, with the version it was based on", async () => {
    const api = server(draft(1));
    const editor = new DraftEditor(draft(1), api.save);
    editor.update("index.ts", "a");
    editor.update("index.ts", "ab");
    expect(editor.state.status).toBe("dirty");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 1);
    expect(api.saves).toEqual([{ baseVersion: 1, files: draft(0, "ab").files }]);
    expect(editor.state).toEqual({ status: "saved", version: 2 });
  });

  it("shows a conflict instead of overwriting, then keeps mine on top of theirs", async () => {
    const api = server(draft(1));
    const editor = new DraftEditor(draft(1), api.save);
    api.edit("from another tab");
    editor.update("index.ts", "mine");
    await editor.saveNow();
    expect(editor.state).toMatchObject({ status: "conflict", theirs: { version: 2 } });
    expect(api.current().files[1]?.content).toBe("from another tab");
    await editor.resolveConflict("mine");
    expect(editor.state).toEqual({ status: "saved", version: 3 });
    expect(api.current().files[1]?.content).toBe("mine");
  });

  it("saves files merged from both sides on top of their version", async () => {
    const api = server(draft(1));
    const editor = new DraftEditor(draft(1), api.save);
    api.edit("theirs");
    editor.update("index.ts", "mine");
    await editor.saveNow();
    const merged = draft(0, "theirs + mine").files;
    await editor.resolveConflict({ merged });
    expect(editor.state).toEqual({ status: "saved", version: 3 });
    expect(api.saves.at(-1)).toEqual({ baseVersion: 2, files: merged });
    expect(editor.file("index.ts")?.content).toBe("theirs + mine");
  });

  it("takes theirs on request and drops my edit", async () => {
    const api = server(draft(1));
    const editor = new DraftEditor(draft(1), api.save);
    api.edit("theirs");
    editor.update("index.ts", "mine");
    await editor.saveNow();
    await editor.resolveConflict("theirs");
    expect(editor.file("index.ts")?.content).toBe("theirs");
    expect(editor.state).toEqual({ status: "saved", version: 2 });
  });

  it("checks file names and protects the manifest", () => {
    const editor = new DraftEditor(draft(1), server(draft(1)).save);
    expect(editor.addFile("../x.ts").ok).toBe(false);
    expect(editor.addFile("INDEX.ts").ok).toBe(false);
    expect(editor.addFile("lib/util.ts").ok).toBe(true);
    expect(editor.renameFile("lib/util.ts", "lib/helpers.ts").ok).toBe(true);
    expect(editor.renameFile("gadget.json", "x.json").ok).toBe(false);
    expect(editor.deleteFile("gadget.json").ok).toBe(false);
    expect(editor.files.map((file) => file.path)).toEqual(["gadget.json", "index.ts", "lib/helpers.ts"]);
  });

  it("keeps unsaved edits in the browser and restores them after a reload", async () => {
    const storage = new MemoryStorage();
    const api = server(draft(1));
    const first = new DraftEditor(draft(1), api.save, storage);
    first.update("index.ts", "typed just before reload");
    first.dispose();
    const second = new DraftEditor(draft(1), api.save, storage);
    expect(second.file("index.ts")?.content).toBe("typed just before reload");
    await vi.advanceTimersByTimeAsync(AUTOSAVE_DELAY_MS + 1);
    expect(api.current().files[1]?.content).toBe("typed just before reload");
    expect(storage.map.size).toBe(0);
  });

  it("reports a failed save as an error and retries on the next save", async () => {
    const save = vi
      .fn()
      .mockRejectedValueOnce(new Error("offline"))
      .mockResolvedValue({ status: "saved", draft: { ...draft(2) } });
    const editor = new DraftEditor(draft(1), save);
    editor.update("index.ts", "x");
    await editor.saveNow();
    expect(editor.state).toEqual({ status: "error", message: "offline" });
    await editor.saveNow();
    expect(editor.state).toEqual({ status: "saved", version: 2 });
  });
});
