/**
 * Git's ignore rules for a gadget folder: the `.gitignore` files of the folder, of its subfolders, and of
 * the folders above it up to the repository's root, each applied relative to where it sits, the deeper
 * one deciding last (as git does).
 */

import { existsSync, readFileSync } from "node:fs";
import { dirname, join, relative, sep } from "node:path";
import ignore, { type Ignore } from "ignore";

interface RuleFile {
  base: string;
  rules: Ignore;
}

function ruleFileAt(folder: string): RuleFile | undefined {
  const path = join(folder, ".gitignore");
  if (!existsSync(path)) return undefined;
  return { base: folder, rules: ignore().add(readFileSync(path, "utf8")) };
}

/** The folder itself and its ancestors up to the one holding `.git` (just the folder when there is none). */
function foldersUpToRepositoryRoot(folder: string): string[] {
  const chain: string[] = [];
  for (let current = folder; ; current = dirname(current)) {
    chain.unshift(current);
    if (existsSync(join(current, ".git"))) return chain;
    if (dirname(current) === current) return [folder];
  }
}

export class IgnoreRules {
  readonly #files: RuleFile[];

  private constructor(files: RuleFile[]) {
    this.#files = files;
  }

  /** The rules in force at `folder` (an absolute path). */
  static at(folder: string): IgnoreRules {
    return new IgnoreRules(foldersUpToRepositoryRoot(folder).flatMap((dir) => ruleFileAt(dir) ?? []));
  }

  /** The rules for a subfolder: these plus its own `.gitignore`, if it has one. */
  enter(folder: string): IgnoreRules {
    const own = ruleFileAt(folder);
    return own ? new IgnoreRules([...this.#files, own]) : this;
  }

  /** Whether git would ignore this absolute path; folders are matched as folders (`build/` rules). */
  ignores(path: string, isFolder: boolean): boolean {
    let ignored = false;
    for (const { base, rules } of this.#files) {
      const rel = relative(base, path).split(sep).join("/");
      if (rel === "" || rel.startsWith("..")) continue;
      const result = rules.test(isFolder ? `${rel}/` : rel);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    }
    return ignored;
  }
}
