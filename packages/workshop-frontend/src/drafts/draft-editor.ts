/**
 * One open draft being edited: the files as typed, autosave with a visible state, and conflicts that
 * are shown, never silently overwritten. Unsaved edits are also kept in the browser, so a reload
 * within the autosave delay loses nothing. Framework-free; React subscribes.
 */

import {
  checkPath,
  type Draft,
  type GadgetFile,
  MANIFEST_PATH,
  type SaveDraftInput,
  type SaveOutcome,
} from "@gadgets/workshop-shared";
import type { TokenStorage } from "../connection/workshop-connection.ts";
import { Subscribable } from "../subscribable.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";

export type SaveState =
  | { status: "saved"; version: number }
  | { status: "dirty" }
  | { status: "saving" }
  | { status: "conflict"; theirs: Draft; message: string }
  | { status: "error"; message: string };

export type SaveFunction = (draftId: string, input: SaveDraftInput) => Promise<SaveOutcome>;

export type FileChange = { ok: true } | { ok: false; error: string };

/** Gets the files about to be saved and answers what to save (the lock made fresh: `packages/lock-keeper.ts`). */
export type PrepareFunction = (files: GadgetFile[]) => Promise<GadgetFile[]>;

/** Edits wait this long for more typing before they are saved. */
export const AUTOSAVE_DELAY_MS = 700;

export class DraftEditor extends Subscribable {
  readonly draftId: string;
  #files: GadgetFile[];
  #version: number;
  #state: SaveState;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #saving: Promise<void> | undefined;
  #editsDuringSave = false;

  constructor(
    draft: Draft,
    private readonly save: SaveFunction,
    private readonly storage?: TokenStorage & { removeItem(key: string): void },
    private readonly prepare?: PrepareFunction,
  ) {
    super();
    this.draftId = draft.id;
    this.#files = draft.files;
    this.#version = draft.version;
    this.#state = { status: "saved", version: draft.version };
    this.#restoreUnsaved(draft);
  }

  get files(): GadgetFile[] {
    return this.#files;
  }

  get version(): number {
    return this.#version;
  }

  get state(): SaveState {
    return this.#state;
  }

  file(path: string): GadgetFile | undefined {
    return this.#files.find((file) => file.path === path);
  }

  update(path: string, content: string): void {
    if (this.file(path)?.content === content) return;
    this.#files = this.#files.map((file) => (file.path === path ? { ...file, content } : file));
    this.#edited();
  }

  addFile(path: string, content = ""): FileChange {
    const checked = checkPath(path);
    if (!checked.ok) return checked;
    if (this.#files.some((file) => file.path.toLowerCase() === path.toLowerCase()))
      return { ok: false, error: `A file named "${path}" already exists.` };
    this.#files = [...this.#files, { path, content }];
    this.#edited();
    return { ok: true };
  }

  renameFile(from: string, to: string): FileChange {
    if (from === MANIFEST_PATH) return { ok: false, error: `${MANIFEST_PATH} is the manifest; it keeps its name.` };
    const checked = checkPath(to);
    if (!checked.ok) return checked;
    if (from !== to && this.#files.some((file) => file.path.toLowerCase() === to.toLowerCase()))
      return { ok: false, error: `A file named "${to}" already exists.` };
    this.#files = this.#files.map((file) => (file.path === from ? { ...file, path: to } : file));
    this.#edited();
    return { ok: true };
  }

  deleteFile(path: string): FileChange {
    if (path === MANIFEST_PATH)
      return { ok: false, error: `${MANIFEST_PATH} is the manifest; a gadget cannot do without it.` };
    this.#files = this.#files.filter((file) => file.path !== path);
    this.#edited();
    return { ok: true };
  }

  /** Saves now (waiting for a save in flight first); resolves with the resulting state. */
  async saveNow(): Promise<SaveState> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
    while (this.#saving) await this.#saving;
    if (this.#state.status !== "dirty" && this.#state.status !== "error") return this.#state;
    this.#saving = this.#runSave().finally(() => {
      this.#saving = undefined;
    });
    await this.#saving;
    return this.#state;
  }

  /**
   * Settles a conflict: keep my files on top of their version, take theirs, or save files merged from
   * both (the merge view) on top of their version.
   */
  async resolveConflict(choice: "mine" | "theirs" | { merged: GadgetFile[] }): Promise<SaveState> {
    if (this.#state.status !== "conflict") return this.#state;
    const theirs = this.#state.theirs;
    this.#version = theirs.version;
    if (typeof choice === "object") {
      this.#files = choice.merged;
      this.#keepUnsaved();
    }
    if (choice === "theirs") {
      this.#files = theirs.files;
      this.#forgetUnsaved();
      this.#set({ status: "saved", version: theirs.version });
      return this.#state;
    }
    this.#set({ status: "dirty" });
    return this.saveNow();
  }

  dispose(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** Puts files made outside the typing (a lock, a dependency added) into the draft, to be saved. */
  replaceFiles(files: GadgetFile[]): void {
    this.#files = files;
    this.#edited();
  }

  async #runSave(): Promise<void> {
    let files = this.#files;
    this.#editsDuringSave = false;
    this.#set({ status: "saving" });
    let outcome: SaveOutcome;
    try {
      if (this.prepare) files = await this.#prepared(files);
      outcome = await this.save(this.draftId, { baseVersion: this.#version, files });
    } catch (error) {
      this.#set({ status: "error", message: error instanceof Error ? error.message : String(error) });
      return;
    }
    if (outcome.status === "conflict") {
      this.#set({ status: "conflict", theirs: outcome.current, message: outcome.message });
      return;
    }
    this.#version = outcome.draft.version;
    if (this.#editsDuringSave) {
      this.#set({ status: "dirty" });
      this.#schedule();
    } else {
      this.#forgetUnsaved();
      this.#set({ status: "saved", version: outcome.draft.version });
    }
  }

  /** The prepared files; what it changed is also put into the files being edited (typed since, kept). */
  async #prepared(files: GadgetFile[]): Promise<GadgetFile[]> {
    const prepared = this.prepare ? await this.prepare(files) : files;
    if (prepared === files) return files;
    const before = new Map(files.map((file) => [file.path, file.content]));
    const changed = prepared.filter((file) => before.get(file.path) !== file.content);
    const current = new Map(this.#files.map((file) => [file.path, file] as const));
    for (const file of changed) current.set(file.path, file);
    this.#files = [...current.values()];
    this.#emit();
    return prepared;
  }

  #edited(): void {
    this.#keepUnsaved();
    if (this.#state.status === "conflict") {
      this.#emit();
      return;
    }
    if (this.#state.status === "saving") this.#editsDuringSave = true;
    else this.#set({ status: "dirty" });
    this.#schedule();
  }

  #schedule(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.saveNow(), AUTOSAVE_DELAY_MS);
  }

  #keepUnsaved(): void {
    try {
      this.storage?.setItem(
        STORAGE_KEYS.unsaved(this.draftId),
        JSON.stringify({ baseVersion: this.#version, files: this.#files }),
      );
    } catch {
      // storage full or disabled: autosave still runs
    }
  }

  #forgetUnsaved(): void {
    this.storage?.removeItem(STORAGE_KEYS.unsaved(this.draftId));
  }

  #restoreUnsaved(draft: Draft): void {
    const raw = this.storage?.getItem(STORAGE_KEYS.unsaved(draft.id));
    if (!raw) return;
    try {
      const unsaved = JSON.parse(raw) as { baseVersion: number; files: GadgetFile[] };
      if (!Array.isArray(unsaved.files)) return;
      this.#files = unsaved.files;
      this.#version = unsaved.baseVersion;
      // Based on an older version: saving will surface the conflict instead of overwriting.
      this.#state = { status: "dirty" };
      this.#schedule();
    } catch {
      this.#forgetUnsaved();
    }
  }

  #set(state: SaveState): void {
    this.#state = state;
    this.#emit();
  }

  #emit(): void {
    this.notify();
  }
}
