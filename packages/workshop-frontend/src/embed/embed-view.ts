/** What the embed shows: which panes its options ask for, and which file is open. */

import type { EmbedOptions, GadgetFile } from "@gadgets/workshop-shared";
import { MANIFEST_PATH } from "@gadgets/workshop-shared/api";

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
  const entry = manifestEntry(files);
  return has(entry) ? entry : MANIFEST_PATH;
}

/**
 * The manifest's `entry`, read without checking the rest of the manifest: the embed's first paint has a
 * budget, and the full check (its JSON Schemas among it) is the Workshop's to make when the gadget runs.
 */
function manifestEntry(files: readonly GadgetFile[]): string | undefined {
  const manifest = files.find((file) => file.path === MANIFEST_PATH);
  try {
    const entry = (JSON.parse(manifest?.content ?? "null") as { entry?: unknown } | null)?.entry;
    return typeof entry === "string" ? entry : undefined;
  } catch {
    return undefined;
  }
}
