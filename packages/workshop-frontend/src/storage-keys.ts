/**
 * Everything the IDE keeps in the browser's localStorage, named in one place. The names are part of what
 * people already have stored: renaming one forgets their token, drafts' unsaved edits or presets.
 */
export const STORAGE_KEYS = {
  /** The workspace token: the workspace itself. */
  token: "workshop.token",
  theme: "workshop.theme",
  /** Set once the first-visit example was offered. */
  welcomed: "workshop.welcomed",
  /** The draft to open (also set by "Fork and open" on a share page). */
  activeDraft: "workshop.activeDraft",
  /** A draft's payload text in the run panel. */
  payload: (draftId: string) => `workshop.payload.${draftId}`,
  /** A draft's saved payload presets. */
  presets: (draftId: string) => `workshop.presets.${draftId}`,
  /** Edits not yet saved to the server. */
  unsaved: (draftId: string) => `workshop.unsaved.${draftId}`,
  /** How the person sized the IDE's panes: the columns, and the run strip against the output panel. */
  paneLayout: (group: "columns" | "run-column") => `workshop.layout.${group}`,
} as const;
