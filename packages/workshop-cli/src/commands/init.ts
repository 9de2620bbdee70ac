/**
 * `gadgets init [dir]`: a new gadget folder from one of the IDE's templates, with a tsconfig.json and the
 * gadget contract's types so the user's own editor completes `env`. Never overwrites a file.
 */

import { existsSync, lstatSync, mkdirSync, readlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join, relative, resolve } from "node:path";
import { TEMPLATES } from "@gadgets/workshop-frontend/templates";
import { checkManifest, MAX_NAME_LENGTH } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString } from "../command.ts";
import { ENV_TYPES_FILE, envTypesText } from "../env-types-file.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";

/** Editor settings for a gadget: the isolate's globals (a worker's), modern syntax, extensionless imports. */
const TSCONFIG = `${JSON.stringify(
  {
    compilerOptions: {
      target: "ES2022",
      module: "ESNext",
      moduleResolution: "bundler",
      lib: ["ES2022", "WebWorker"],
      types: [],
      strict: true,
      noEmit: true,
      allowImportingTsExtensions: true,
      skipLibCheck: true,
    },
    include: ["**/*.ts"],
  },
  null,
  2,
)}\n`;

const shownPath = (path: string) => relative(process.cwd(), path) || ".";

/** Whether anything is at `path`, a link to nowhere included (existsSync follows links and says no). */
function taken(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false }) !== undefined;
  } catch {
    // Under a file, say: nothing is there, and writing will say why it cannot.
    return false;
  }
}

/** Refuses a folder that is, or lies under, a link to nowhere: writing through it could only fail. */
function refuseLinkToNowhere(folder: string): void {
  for (let path = folder; ; path = dirname(path)) {
    if (taken(path)) {
      if (lstatSync(path).isSymbolicLink() && !existsSync(path)) {
        throw new CliError(
          EXIT.usage,
          `${shownPath(path)} is a link to ${readlinkSync(path)}, which does not exist; nothing was written. Create what it points at, or choose another folder.`,
        );
      }
      return;
    }
    if (dirname(path) === path) return;
  }
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams } = context;
  const folder = resolve(context.positionals[0] ?? ".");
  const shown = shownPath(folder);
  const templateId = flagString(flags, "template") ?? "echo";
  const template = TEMPLATES.find((candidate) => candidate.id === templateId);
  if (!template) {
    throw new CliError(
      EXIT.usage,
      `Unknown template "${templateId}": choose one of ${TEMPLATES.map((t) => `${t.id} (${t.title})`).join(", ")}.`,
    );
  }
  const name = (flagString(flags, "name") ?? basename(folder)).trim().slice(0, MAX_NAME_LENGTH);
  const files = template.files(name);
  const manifest = checkManifest(files);
  if (!manifest.ok) throw new CliError(EXIT.usage, `${manifest.error} Choose a name with --name.`);

  const writes = [
    ...files,
    { path: "tsconfig.json", content: TSCONFIG },
    { path: ENV_TYPES_FILE, content: envTypesText(manifest.value.grants ?? {}) },
  ];
  refuseLinkToNowhere(folder);
  const existing = writes.filter((file) => taken(join(folder, file.path))).map((file) => file.path);
  if (existing.length > 0) {
    throw new CliError(
      EXIT.usage,
      `${shown} already has ${existing.join(", ")}; nothing was written. Choose an empty or new folder.`,
    );
  }
  try {
    for (const file of writes) {
      const path = join(folder, file.path);
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, file.content, { flag: "wx" });
    }
  } catch (error) {
    // Not a bug of ours: a folder that cannot be made or written (a file in the way, no permission, a full disk).
    throw new CliError(EXIT.usage, `Cannot write ${shown}: ${(error as Error).message}. Choose another folder.`);
  }
  streams.stderr.write(
    `Created gadget "${name}" (${template.title}) in ${shown}: ${writes.map((file) => file.path).join(", ")}.\n` +
      `Run it: gadgets run ${shown}    Watch it: gadgets dev ${shown}\n` +
      `Use an npm package: gadgets add zod --dir ${shown} (adds it to dependencies in gadget.json and locks it in gadget.lock.json)\n`,
  );
  return EXIT.ok;
}

export const init: Command = {
  usage: `init [dir] [--template ${TEMPLATES.map((t) => t.id).join("|")}] [--name NAME]`,
  summary: "create a gadget folder from a template, with editor types for env",
  options: { template: { type: "string" }, name: { type: "string" } },
  maxPositionals: 1,
  run,
};
