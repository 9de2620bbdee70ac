import { useEffect, useState, useSyncExternalStore } from "react";
import type { Draft } from "@gadgets/workshop-shared";
import { useQueryClient } from "@tanstack/react-query";
import { DraftEditor, type SaveFunction, type SaveState } from "../drafts/draft-editor.ts";
import { LockKeeper } from "../packages/lock-keeper.ts";
import { draftsKey } from "./use-drafts.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** The editor of an open draft; a new one when another draft (or a fresh copy) is opened. */
export function useDraftEditor(draft: Draft | undefined): DraftEditor | undefined {
  const { connection } = useWorkshop();
  const queryClient = useQueryClient();
  const [editor, setEditor] = useState<DraftEditor>();
  useEffect(() => {
    if (!draft) return;
    const save: SaveFunction = async (id, input) => {
      const outcome = await (await connection.ready()).saveDraft(id, input);
      // The drafts list shows names and versions: it follows every save.
      if (outcome.status === "saved") void queryClient.invalidateQueries({ queryKey: draftsKey });
      return outcome;
    };
    const keeper = new LockKeeper(async (input) => (await connection.ready()).resolveDependencies(input));
    const next = new DraftEditor(draft, save, window.localStorage, (files) => keeper.prepare(files));
    lockKeepers.set(next, keeper);
    setEditor(next);
    return () => {
      void next.saveNow();
      next.dispose();
    };
  }, [draft, connection, queryClient]);
  return editor && draft && editor.draftId === draft.id ? editor : undefined;
}

/** Each editor's lock keeper (made with it above): the dependencies panel and the quick fix use it. */
const lockKeepers = new WeakMap<DraftEditor, LockKeeper>();
export const lockKeeperOf = (editor: DraftEditor | undefined): LockKeeper | undefined =>
  editor ? lockKeepers.get(editor) : undefined;

const noEditor = () => () => {};
const NO_FILES: DraftEditor["files"] = [];

export function useEditorSnapshot(editor: DraftEditor | undefined): {
  files: DraftEditor["files"];
  state: SaveState | undefined;
} {
  const files = useSyncExternalStore(editor?.subscribe ?? noEditor, () => editor?.files ?? NO_FILES);
  const state = useSyncExternalStore(editor?.subscribe ?? noEditor, () => editor?.state);
  return { files, state };
}
