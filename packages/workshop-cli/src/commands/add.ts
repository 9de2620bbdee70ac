/**
 * `gadgets add <package>[@range]… [--dir DIR] [--update]`: adds npm packages to gadget.json's
 * `dependencies` as `^x.y.z` of the newest version matching (the registry's `latest` without a range),
 * then locks the tree into gadget.lock.json and writes the packages' declarations for the editor.
 * `--update` re-resolves the named packages already declared (all, without names) to the newest their
 * ranges allow.
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MANIFEST_PATH, MAX_DIRECT_DEPENDENCIES } from "@gadgets/workshop-shared";
import { caretRange, withDependency } from "@gadgets/workshop-shared/dependency-lock";
import { isPackageName } from "@gadgets/workshop-shared/schemas";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString } from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { lockFolder } from "../folder-lock.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { escapeControls } from "../terminal-text.ts";

export interface PackageSpec {
  name: string;
  range?: string;
}

/** `zod`, `zod@^4`, `@scope/pkg@1.2` → name and range; the range is checked by the Workshop. */
export function parsePackageSpec(spec: string): PackageSpec {
  const at = spec.indexOf("@", 1);
  const name = at === -1 ? spec : spec.slice(0, at);
  const range = at === -1 ? undefined : spec.slice(at + 1);
  if (!isPackageName(name))
    throw new CliError(
      EXIT.usage,
      `"${escapeControls(name)}" is not an npm package name: use lower case, like zod or @scope/name, optionally @range (zod@^4).`,
    );
  if (range === "") throw new CliError(EXIT.usage, `"${escapeControls(spec)}" has an empty range after "@".`);
  return range === undefined ? { name } : { name, range };
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags } = context;
  const update = flags.update === true;
  const specs = context.positionals.map(parsePackageSpec);
  if (specs.length === 0 && !update)
    throw new CliError(EXIT.usage, "Name the packages to add: gadgets add zod (or zod@^4), or --update.");
  const folder = readGadgetFolder(flagString(flags, "dir") ?? ".");
  const open = await openSession(context.target());
  try {
    const manifestPath = join(folder.root, MANIFEST_PATH);
    let manifestText = readFileSync(manifestPath, "utf8");
    const added: string[] = [];
    for (const spec of specs) {
      const found = await open.session.lookupPackage(spec.name, spec.range ?? null).catch((error: unknown) => {
        throw open.failure(error, EXIT.invalid);
      });
      if (update && spec.range === undefined && folder.manifest.dependencies?.[spec.name]) continue;
      manifestText = withDependency(manifestText, found.name, caretRange(found.version));
      added.push(`${found.name} ${caretRange(found.version)}`);
    }
    const files = folder.files.map((file) => (file.path === MANIFEST_PATH ? { ...file, content: manifestText } : file));
    const names = specs.map((spec) => spec.name);
    const locked = await lockFolder(
      open.session,
      { ...folder, files },
      update ? (names.length ? names : true) : undefined,
    );
    // gadget.json is written only once the tree it names could be locked: a failed add leaves the folder as it was.
    if (added.length) writeFileSync(manifestPath, manifestText);
    if (added.length) streams.stderr.write(`Added ${escapeControls(added.join(", "))} to ${MANIFEST_PATH}.\n`);
    if (locked.changed) streams.stderr.write("Locked the dependencies in gadget.lock.json.\n");
    else if (update) streams.stderr.write("gadget.lock.json already has the newest versions the ranges allow.\n");
    if (locked.typesProblem) streams.stderr.write(`${escapeControls(locked.typesProblem)}\n`);
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const add: Command = {
  usage: "add <package>[@range]... [--dir DIR] [--update]",
  summary: "add npm packages to gadget.json's dependencies (newest matching, as ^x.y.z) and lock them",
  options: { dir: { type: "string" }, update: { type: "boolean" } },
  maxPositionals: MAX_DIRECT_DEPENDENCIES,
  run,
};
