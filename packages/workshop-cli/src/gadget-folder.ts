/**
 * Reads a gadget from a folder the way the IDE holds one: the files git would keep (`.gitignore` rules,
 * no `node_modules`, no hidden files such as `.env`), without the editor-only files `gadgets init`
 * writes (`tsconfig.json`, `*.d.ts`), checked with the same validation and limits as the server.
 */

import { lstatSync, readdirSync, readFileSync, realpathSync, type Stats, statSync } from "node:fs";
import { join, relative, resolve, sep } from "node:path";
import {
  CLI_MAX_SCANNED_ENTRIES,
  checkFiles,
  checkManifest,
  checkPath,
  type GadgetFile,
  type GadgetManifest,
  MANIFEST_PATH,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_GADGET_BYTES,
} from "@gadgets/workshop-shared";
import { CliError } from "./cli-error.ts";
import { EXIT } from "./exit-codes.ts";
import { IgnoreRules } from "./ignore-rules.ts";

export interface GadgetFolder {
  /** The folder as an absolute path. */
  root: string;
  files: GadgetFile[];
  manifest: GadgetManifest;
}

/** Files that help the user's editor and mean nothing to the Workshop. */
export function isEditorOnly(name: string): boolean {
  return name === "tsconfig.json" || name.endsWith(".d.ts");
}

const HOW_TO_LEAVE_OUT = "Remove it, or list it in .gitignore to leave it out of the upload.";

/** What a link leads to, or undefined for a link to nothing (a missing target, a loop). */
function followed(link: string): Stats | undefined {
  try {
    return statSync(link);
  } catch {
    return undefined;
  }
}

function refuse(shown: string, message: string): CliError {
  return new CliError(EXIT.invalid, `${shown}: ${message}`);
}

export function readGadgetFolder(folder: string): GadgetFolder {
  const root = resolve(folder);
  const shown = relative(process.cwd(), root) || ".";
  let isFolder = false;
  try {
    isFolder = statSync(root).isDirectory();
  } catch {}
  if (!isFolder) throw refuse(shown, "no such folder. Give the folder that holds the gadget's gadget.json.");
  let hasManifest = false;
  try {
    hasManifest = statSync(join(root, MANIFEST_PATH)).isFile();
  } catch {}
  if (!hasManifest) {
    throw refuse(
      shown,
      `no ${MANIFEST_PATH} here, so this is not a gadget folder. Create a gadget with \`gadgets init ${shown}\`, or give the folder that holds ${MANIFEST_PATH}.`,
    );
  }

  const realRoot = realpathSync(root);
  const files: GadgetFile[] = [];
  let scanned = 0;
  let total = 0;

  const visit = (dir: string, rules: IgnoreRules): void => {
    const entries = readdirSync(dir, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
    for (const entry of entries) {
      if (++scanned > CLI_MAX_SCANNED_ENTRIES) {
        throw refuse(
          shown,
          `more than ${CLI_MAX_SCANNED_ENTRIES} files and folders to look through; a gadget has at most ${MAX_FILES} files. Is this the gadget's folder? List big folders in .gitignore.`,
        );
      }
      const absolute = join(dir, entry.name);
      const path = relative(root, absolute).split(sep).join("/");
      if (entry.name.startsWith(".") || entry.name === "node_modules") continue;
      const own = lstatSync(absolute);
      // A link is matched as what it leads to (a `vendor/` rule skips a link to a folder), and the rules
      // come first: an ignored link is left out without looking where it leads.
      const link = own.isSymbolicLink();
      const stats = link ? followed(absolute) : own;
      if (rules.ignores(absolute, stats?.isDirectory() ?? false)) continue;
      if (!stats)
        throw refuse(
          shown,
          `"${path}" is a link to nothing (its target is missing, or links loop). ${HOW_TO_LEAVE_OUT}`,
        );
      if (link && !realpathSync(absolute).startsWith(`${realRoot}${sep}`))
        throw refuse(shown, `"${path}" links outside the gadget's folder. ${HOW_TO_LEAVE_OUT}`);
      if (stats.isDirectory()) {
        visit(absolute, rules.enter(absolute));
        continue;
      }
      if (!stats.isFile() || isEditorOnly(entry.name)) continue;
      const checkedPath = checkPath(path);
      if (!checkedPath.ok) throw refuse(shown, `${checkedPath.error} ${HOW_TO_LEAVE_OUT}`);
      if (files.length >= MAX_FILES)
        throw refuse(
          shown,
          `more than ${MAX_FILES} files, the limit for a gadget. ${HOW_TO_LEAVE_OUT.replace("it", "some")}`,
        );
      // Sizes are checked before reading, so a stray large file is refused without loading it.
      if (stats.size > MAX_FILE_BYTES) {
        throw refuse(
          shown,
          `"${path}" is ${stats.size} bytes; the limit is ${MAX_FILE_BYTES} bytes per file. ${HOW_TO_LEAVE_OUT}`,
        );
      }
      total += stats.size;
      if (total > MAX_GADGET_BYTES)
        throw refuse(shown, `the files add up to more than ${MAX_GADGET_BYTES} bytes, the limit for a gadget.`);
      files.push({ path, content: readFileSync(absolute, "utf8") });
    }
  };
  try {
    visit(root, IgnoreRules.at(root));
  } catch (error) {
    if (error instanceof CliError) throw error;
    // A folder or file that cannot be read (no permission, gone while read) is the folder's problem, named.
    const at = (error as NodeJS.ErrnoException).path;
    const where = at ? `"${relative(root, at).split(sep).join("/") || "."}"` : "a file";
    throw refuse(shown, `cannot read ${where} (${(error as Error).message}). ${HOW_TO_LEAVE_OUT}`);
  }

  const checkedFiles = checkFiles(files);
  if (!checkedFiles.ok) throw refuse(shown, checkedFiles.error);
  const manifest = checkManifest(checkedFiles.value);
  if (!manifest.ok) throw refuse(shown, manifest.error);
  return { root, files: checkedFiles.value, manifest: manifest.value };
}
