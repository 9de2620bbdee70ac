/**
 * The merge view's data: each file of a conflicted draft as theirs (saved elsewhere) beside mine, and
 * the files to save once the person has merged. A file that only one side has is kept: a merge
 * loses nothing unless the person empties it.
 */

import type { GadgetFile } from "@gadgets/workshop-shared";

export interface MergePair {
  path: string;
  /** Their saved text; "" when only I have the file. */
  theirs: string;
  /** My text, where the merge is edited; starts as theirs when only they have the file. */
  mine: string;
  differs: boolean;
}

export function mergePairs(mine: readonly GadgetFile[], theirs: readonly GadgetFile[]): MergePair[] {
  const paths = [...new Set([...mine.map((file) => file.path), ...theirs.map((file) => file.path)])];
  return paths.map((path) => {
    const their = theirs.find((file) => file.path === path)?.content;
    const my = mine.find((file) => file.path === path)?.content;
    const mineText = my ?? their ?? "";
    return { path, theirs: their ?? "", mine: mineText, differs: their !== my };
  });
}

/** The files to save: every path, with the merged text where the person edited it. */
export function mergedFiles(pairs: readonly MergePair[], edited: ReadonlyMap<string, string>): GadgetFile[] {
  return pairs.map((pair) => ({ path: pair.path, content: edited.get(pair.path) ?? pair.mine }));
}
