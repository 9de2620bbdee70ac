/**
 * Puts a folder's files into the workspace: the draft named like the gadget's manifest is the folder's
 * draft (the newest one, if the IDE made several). Unchanged files make no new version; changed files
 * are saved on top of the draft's current version, since the folder is what the user is editing.
 * A gadget with `dependencies` is locked first (folder-lock.ts), its gadget.lock.json written into the folder.
 */

import type { Draft, DraftSummary, GadgetFile, Session } from "@gadgets/workshop-shared";
import type { RpcStub } from "capnweb";
import { lockFolder } from "./folder-lock.ts";
import { escapeControls } from "./terminal-text.ts";
import type { GadgetFolder } from "./gadget-folder.ts";

export interface SyncedDraft {
  draftId: string;
  version: number;
  /** created, saved (a new version) or unchanged. */
  change: "created" | "saved" | "unchanged";
  /** gadget.lock.json was written into the folder (dependencies changed, or it was missing). */
  lockWritten: boolean;
  /** The lock uploaded, when the gadget has one. */
  lock?: string;
  /** Why the packages' declarations for the user's editor are not up to date, if they are not. */
  typesProblem?: string;
}

function sameFiles(a: readonly GadgetFile[], b: readonly GadgetFile[]): boolean {
  if (a.length !== b.length) return false;
  const byPath = new Map(a.map((file) => [file.path, file.content]));
  return b.every((file) => byPath.get(file.path) === file.content);
}

function newest(drafts: readonly DraftSummary[], name: string): DraftSummary | undefined {
  let found: DraftSummary | undefined;
  for (const draft of drafts) {
    if (draft.name === name && (found === undefined || draft.updatedAt > found.updatedAt)) found = draft;
  }
  return found;
}

export async function syncDraft(session: RpcStub<Session>, unlocked: GadgetFolder): Promise<SyncedDraft> {
  const locked = await lockFolder(session, unlocked);
  const folder = locked.folder;
  const lockNote = {
    lockWritten: locked.changed,
    ...(locked.lock !== undefined ? { lock: locked.lock } : {}),
    ...(locked.typesProblem ? { typesProblem: locked.typesProblem } : {}),
  };
  const existing = newest(await session.listDrafts(), folder.manifest.name);
  if (!existing) {
    const draft = await session.createDraft({ files: folder.files });
    return { draftId: draft.id, version: draft.version, change: "created", ...lockNote };
  }
  let current: Draft = await session.openDraft(existing.id);
  // A save that lost a race with another editor is retried once on top of what that editor saved.
  for (let attempt = 0; attempt < 2; attempt++) {
    if (sameFiles(current.files, folder.files))
      return { draftId: current.id, version: current.version, change: "unchanged", ...lockNote };
    const saved = await session.saveDraft(current.id, { baseVersion: current.version, files: folder.files });
    if (saved.status === "saved")
      return { draftId: saved.draft.id, version: saved.draft.version, change: "saved", ...lockNote };
    current = saved.current;
  }
  throw new Error(`Draft "${folder.manifest.name}" keeps changing under us (another editor is saving it); try again.`);
}

/** Tells the user about the lock and the declarations, on stderr (stdout is kept for results). */
export function reportLock(draft: SyncedDraft, stderr: { write(text: string): unknown }): void {
  if (draft.lockWritten) stderr.write("Locked the dependencies in gadget.lock.json.\n");
  if (draft.typesProblem) stderr.write(`${escapeControls(draft.typesProblem)}\n`);
}
