/**
 * React components and hooks of the IDE live here. The package exists so the app and the IDE stay
 * separate: the app mounts pages, this package holds the editor, console and run panel.
 */
export type { RunEvent, RunOutcome } from "@gadgets/workshop-shared";
