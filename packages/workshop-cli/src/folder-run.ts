/** One run of a gadget folder: upload its files into the folder's draft, run it, stream its events. */

import type { JsonValue, RunEvent, RunOptions, RunOutcome } from "@gadgets/workshop-shared";
import type { OpenSession } from "./connection.ts";
import { type SyncedDraft, syncDraft } from "./draft-sync.ts";
import { EXIT } from "./exit-codes.ts";
import type { GadgetFolder } from "./gadget-folder.ts";

export interface FolderRunRequest {
  open: OpenSession;
  folder: GadgetFolder;
  payload: JsonValue;
  options: RunOptions;
  onEvent: (event: RunEvent) => void;
  /** Told the run's id as soon as its first event arrives (to cancel it). */
  onStarted?: (runId: string) => void;
  /** Told once the folder is in its draft (and locked), before the run starts. */
  onSynced?: (draft: SyncedDraft) => void;
}

export interface FolderRunResult {
  draft: SyncedDraft;
  outcome: RunOutcome;
}

export async function runFolder(request: FolderRunRequest): Promise<FolderRunResult> {
  const { open, folder, payload, options } = request;
  let draft: SyncedDraft;
  try {
    draft = await syncDraft(open.session, folder);
  } catch (error) {
    throw open.failure(error, EXIT.invalid);
  }
  request.onSynced?.(draft);
  let started = false;
  const listener = (event: RunEvent) => {
    if (!started) {
      started = true;
      request.onStarted?.(event.runId);
    }
    request.onEvent(event);
  };
  try {
    const outcome = await open.session.runDraft(draft.draftId, payload, listener, options);
    return { draft, outcome };
  } catch (error) {
    throw open.failure(error, EXIT.invalid);
  }
}
