import { useEffect, useRef, useState } from "react";
import { TEMPLATES } from "../drafts/templates.ts";
import { runs, useAppKeys, useCommand } from "./use-app-commands.ts";
import { useDrafts } from "./use-drafts.ts";

/** What the Workbench offers as app commands; an action left out cannot run now. */
export interface WorkbenchActions {
  run?(): void;
  cancelRun?(): void;
  save?(): void;
  publish?(): void;
  share?(): void;
  shareRun?(): void;
  newDraft(templateId: string): void;
  openDraft(draftId: string): void;
  toggleTheme(): void;
  openDocs(view: "help" | "catalog"): void;
  openShortcuts(): void;
  editorCommands?(): void;
}

/**
 * The Workbench's app commands (palette and keys, `commands/app-commands.ts`), and whether the palette
 * is open. Run tests is the output panel's (`RunColumn`).
 */
export function useWorkbenchCommands(actions: WorkbenchActions) {
  const [paletteOpen, setPaletteOpen] = useState(false);
  // What the palette chose runs once it is gone: its dialog gives focus back as it closes, which would
  // take it from whatever the command focused (the editor's own palette closes when it loses focus).
  const afterClose = useRef<() => void>(undefined);
  useEffect(() => {
    if (paletteOpen) return;
    const next = afterClose.current;
    afterClose.current = undefined;
    next?.();
  }, [paletteOpen]);
  const drafts = useDrafts();
  useAppKeys();
  useCommand(
    "palette",
    runs(() => setPaletteOpen(true)),
  );
  useCommand("run", runs(actions.run));
  useCommand("cancel-run", runs(actions.cancelRun));
  useCommand("save", runs(actions.save));
  useCommand("publish", runs(actions.publish));
  useCommand("share", runs(actions.share));
  useCommand("share-run", runs(actions.shareRun));
  useCommand("toggle-theme", runs(actions.toggleTheme));
  useCommand(
    "catalog",
    runs(() => actions.openDocs("catalog")),
  );
  useCommand(
    "help",
    runs(() => actions.openDocs("help")),
  );
  useCommand("shortcuts", runs(actions.openShortcuts));
  useCommand("editor-commands", runs(actions.editorCommands));
  useCommand("new-draft", {
    kind: "pick",
    placeholder: "Start from which template?",
    choices: () =>
      TEMPLATES.map((template) => ({ id: template.id, label: template.title, detail: template.description })),
    pick: actions.newDraft,
  });
  useCommand("switch-draft", {
    kind: "pick",
    placeholder: "Open which draft?",
    choices: () =>
      (drafts.data ?? []).map((draft) => ({ id: draft.id, label: draft.name, detail: `saved #${draft.version}` })),
    pick: actions.openDraft,
  });
  return {
    paletteOpen,
    openPalette: () => setPaletteOpen(true),
    /** Closes the palette, then runs `then` (the command chosen in it). */
    closePalette: (then?: () => void) => {
      afterClose.current = then;
      setPaletteOpen(false);
    },
  };
}
