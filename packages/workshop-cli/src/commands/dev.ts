/**
 * `gadgets dev [dir]`: watch mode. Runs the folder, then again on every save with the same input; a run
 * still going when a file changes is cancelled first. A broken file is reported and the watch goes on.
 * Ctrl+C cancels the current run, closes the session and exits 0.
 */

import { existsSync, type FSWatcher, readFileSync, watch } from "node:fs";
import { resolve, sep } from "node:path";
import { CLI_WATCH_SETTLE_MS, type JsonValue } from "@gadgets/workshop-shared";
import { LOCK_PATH } from "@gadgets/workshop-shared/api";
import { CliError } from "../cli-error.ts";
import {
  type Command,
  type CommandContext,
  flagString,
  INPUT_OPTIONS,
  JSON_OPTION,
  TIMEOUT_OPTION,
} from "../command.ts";
import { openSession, unreachable } from "../connection.ts";
import { reportLock } from "../draft-sync.ts";
import { refreshEnvTypes, typedAgents } from "../env-types-file.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { runFolder } from "../folder-run.ts";
import { type GadgetFolder, isEditorOnly, readGadgetFolder } from "../gadget-folder.ts";
import { IgnoreRules } from "../ignore-rules.ts";
import { readPayload } from "../payload-input.ts";
import { RunPrinter } from "../run-printer.ts";
import { runOptions } from "../run-options.ts";
import { escapeControls } from "../terminal-text.ts";

/**
 * Whether a change to `file` (relative to the gadget's folder) can change what runs. A name that is gone
 * and was not uploaded is an editor's or tool's temporary file.
 */
function matters(root: string, file: string, uploaded: GadgetFolder, lockWritten: string | undefined): boolean {
  const parts = file.split(sep);
  // The lock this command wrote itself is already what ran.
  if (file === LOCK_PATH && lockWritten !== undefined && readText(resolve(root, file)) === lockWritten) return false;
  if (!existsSync(resolve(root, file)) && !uploaded.files.some((known) => known.path === parts.join("/"))) return false;
  if (parts.some((part) => part.startsWith(".") || part === "node_modules")) return false;
  if (isEditorOnly(parts.at(-1) ?? "")) return false;
  return !IgnoreRules.at(root).ignores(resolve(root, file), false);
}

/** As `matters`, and true when the folder cannot be read to tell (a .gitignore without permission): the run that follows says what it could not read. */
function mattersOrUnreadable(
  root: string,
  file: string,
  uploaded: GadgetFolder,
  lockWritten: string | undefined,
): boolean {
  try {
    return matters(root, file, uploaded, lockWritten);
  } catch {
    return true;
  }
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams, paint, interrupted } = context;
  const root = resolve(context.positionals[0] ?? ".");
  const inputFlags = { input: flagString(flags, "input"), inputFile: flagString(flags, "input-file") };
  const options = runOptions(flagString(flags, "timeout"));
  const payloadFor = (gadget: GadgetFolder): JsonValue => readPayload(inputFlags, gadget.manifest.exampleInput ?? null);
  // Problems with the folder or input at the start end the command; later ones are shown and watched past.
  let folder = readGadgetFolder(root);
  let payload = payloadFor(folder);
  const target = context.target();
  const open = await openSession(target);
  const say = (text: string) => streams.stderr.write(`${paint.paint("blue", text)}\n`);
  // Messages carry the Workshop's words and file names from disk: data, escaped before it is styled.
  const fail = (text: string) => streams.stderr.write(`${paint.paint("red", escapeControls(text))}\n`);

  let runId: string | undefined;
  let lockWritten: string | undefined;
  let rerunWanted = false;
  let stopped = false;
  let loop: Promise<void> | undefined;
  let finish: (code: ExitCode) => void = () => {};
  const finished = new Promise<ExitCode>((done) => {
    finish = done;
  });

  const cancelCurrent = () => {
    if (runId) open.session.cancelRun(runId).catch(() => {});
  };

  const cycle = async (first: boolean) => {
    if (!first) {
      try {
        folder = readGadgetFolder(root);
        payload = payloadFor(folder);
      } catch (error) {
        if (!(error instanceof CliError)) throw error;
        fail(error.message);
        streams.stderr.write("Waiting for the next change.\n");
        return;
      }
    }
    const printer = new RunPrinter({ streams, json: flags.json === true, paint, local: folder });
    try {
      const grants = folder.manifest.grants ?? {};
      refreshEnvTypes(folder.root, grants, await typedAgents(open, grants));
      const { outcome } = await runFolder({
        open,
        folder,
        payload,
        options,
        onEvent: printer.onEvent,
        onSynced: (draft) => {
          reportLock(draft, streams.stderr);
          if (draft.lockWritten) lockWritten = draft.lock;
        },
        onStarted: (id) => {
          runId = id;
          // A change (or Ctrl+C) that came while the files were uploading makes this run stale already.
          if (rerunWanted || stopped) cancelCurrent();
        },
      });
      printer.finish(outcome);
    } catch (error) {
      if (error instanceof CliError && error.exitCode === EXIT.unreachable) {
        fail(error.message);
        finish(EXIT.unreachable);
        return;
      }
      fail(error instanceof Error ? error.message : String(error));
    } finally {
      runId = undefined;
    }
  };

  const drain = async (initial: boolean) => {
    let first = initial;
    while (!stopped && (first || rerunWanted)) {
      rerunWanted = false;
      await cycle(first);
      first = false;
    }
    loop = undefined;
  };

  const changed = new Set<string>();
  let settle: NodeJS.Timeout | undefined;
  let watcher: FSWatcher;
  try {
    watcher = watch(root, { recursive: true }, (_event, file) => {
      if (stopped || (file !== null && !mattersOrUnreadable(root, file, folder, lockWritten))) return;
      if (file) changed.add(file);
      clearTimeout(settle);
      settle = setTimeout(() => {
        say(`↻ ${escapeControls([...changed].join(", ")) || "files"} changed: running again`);
        changed.clear();
        rerunWanted = true;
        cancelCurrent();
        loop ??= drain(false);
      }, CLI_WATCH_SETTLE_MS);
    });
  } catch (error) {
    open[Symbol.dispose]();
    throw new CliError(EXIT.internal, `Cannot watch ${root}: ${(error as Error).message}`);
  }

  open.client.api.onRpcBroken((error: unknown) => {
    if (stopped) return;
    fail(unreachable(target.url, error).message);
    finish(EXIT.unreachable);
  });
  const stop = () => {
    say("Stopping: cancelling the current run.");
    finish(EXIT.ok);
  };
  if (interrupted.aborted) stop();
  else interrupted.addEventListener("abort", stop, { once: true });

  say(`Watching ${root} (Ctrl+C to stop).`);
  loop = drain(true);

  const code = await finished;
  stopped = true;
  watcher.close();
  clearTimeout(settle);
  cancelCurrent();
  await loop;
  open[Symbol.dispose]();
  return code;
}

export const dev: Command = {
  usage: "dev [dir] [--input JSON | --input-file FILE] [--timeout MS] [--json]",
  summary: "watch the folder: run it, then again on every save (cancelling a run still going)",
  options: { ...INPUT_OPTIONS, ...TIMEOUT_OPTION, ...JSON_OPTION },
  maxPositionals: 1,
  run,
};
