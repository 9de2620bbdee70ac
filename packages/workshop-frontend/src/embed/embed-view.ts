/** What the embed shows: which panes its options ask for, and which file is open. */

import { checkManifest, type EmbedOptions, type GadgetFile } from "@gadgets/workshop-shared";

/** The editor and the console are shown unless `view` picks the other alone; `console=hide` hides the console. */
export function panesOf(options: Pick<EmbedOptions, "view" | "console">): { editor: boolean; console: boolean } {
  return { editor: options.view !== "console", console: options.view !== "editor" && options.console !== "hide" };
}

/**
 * The file to show: the tab the reader picked, else the one the host page asked for (`file`), else
 * the gadget's entry (the manifest, when that does not parse).
 */
export function shownPath(files: readonly GadgetFile[], picked: string | undefined, asked: string | undefined): string {
  const has = (path: string | undefined): path is string => path !== undefined && files.some((f) => f.path === path);
  if (has(picked)) return picked;
  if (has(asked)) return asked;
  const manifest = checkManifest(files);
  return manifest.ok ? manifest.value.entry : "gadget.json";
}
