/**
 * `gadgets run [dir]`: uploads the folder, runs it once, streams its console and prints the result.
 * Exits with the code of the outcome's kind (see exit-codes.ts); `--share` also makes the run's /r/ link.
 */

import {
  type Command,
  type CommandContext,
  flagString,
  INPUT_OPTIONS,
  JSON_OPTION,
  TIMEOUT_OPTION,
} from "../command.ts";
import { openSession } from "../connection.ts";
import { reportLock } from "../draft-sync.ts";
import { refreshEnvTypes, typedAgents } from "../env-types-file.ts";
import { EXIT, type ExitCode, exitCodeFor } from "../exit-codes.ts";
import { runFolder } from "../folder-run.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { readPayload } from "../payload-input.ts";
import { RunPrinter } from "../run-printer.ts";
import { cancelOnInterrupt } from "../run-canceller.ts";
import { runOptions } from "../run-options.ts";
import { recordUrl } from "../share-links.ts";
import { escapeControls } from "../terminal-text.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams, paint } = context;
  const folder = readGadgetFolder(context.positionals[0] ?? ".");
  const payload = readPayload(
    { input: flagString(flags, "input"), inputFile: flagString(flags, "input-file") },
    folder.manifest.exampleInput ?? null,
  );
  const options = runOptions(flagString(flags, "timeout"));
  const target = context.target();
  const open = await openSession(target);
  try {
    const grants = folder.manifest.grants ?? {};
    refreshEnvTypes(folder.root, grants, await typedAgents(open, grants));
    const printer = new RunPrinter({ streams, json: flags.json === true, paint, local: folder });
    const canceller = cancelOnInterrupt(context.interrupted, open.session);
    const { outcome } = await runFolder({
      open,
      folder,
      payload,
      options,
      onEvent: printer.onEvent,
      onStarted: canceller.started,
      onSynced: (draft) => reportLock(draft, streams.stderr),
    }).finally(canceller.release);
    printer.finish(outcome);
    if (flags.share) {
      try {
        const { recordId } = await open.session.shareRun(outcome.runId);
        streams.stderr.write(`run record: ${recordUrl(target.url, recordId)}\n`);
      } catch (error) {
        // The run's own outcome decides the exit code; a run refused before it started has no record.
        const failure = open.failure(error, EXIT.notFound);
        if (failure.exitCode === EXIT.unreachable) throw failure;
        streams.stderr.write(
          `${paint.paint("yellow", `Could not share this run: ${escapeControls(failure.message)}`)}\n`,
        );
      }
    }
    return exitCodeFor(outcome);
  } finally {
    open[Symbol.dispose]();
  }
}

export const runCommand: Command = {
  usage: "run [dir] [--input JSON | --input-file FILE] [--timeout MS] [--json] [--share]",
  summary: "upload the folder, run it once, stream its console and print the result",
  options: { ...INPUT_OPTIONS, ...TIMEOUT_OPTION, ...JSON_OPTION, share: { type: "boolean" } },
  maxPositionals: 1,
  run,
};
