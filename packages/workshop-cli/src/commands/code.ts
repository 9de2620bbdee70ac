/**
 * `gadgets code <file | ->`: Code Mode from a terminal — runs the file's text (or stdin's) as the body
 * of an async function with `agents` in scope, as the MCP `run_code` tool does, streaming its console
 * like `gadgets run`; `--types` prints the declaration of `agents` to write it against.
 */

import { readFileSync } from "node:fs";
import { readInputFile } from "../input-file.ts";
import { MAX_CODE_MODE_BYTES } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString, JSON_OPTION, TIMEOUT_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { RunPrinter } from "../run-printer.ts";
import { streamRun } from "../streamed-run.ts";
import { runOptions } from "../run-options.ts";
import { escapeControlsButColours } from "../terminal-text.ts";

/** The code to run: a file's text, or stdin's for `-`; a file past the server's limit is refused here. */
function readCode(path: string): string {
  const code =
    path === "-"
      ? readFileSync(0, "utf8")
      : readInputFile(
          path,
          MAX_CODE_MODE_BYTES,
          (size) => `${path} is ${size} bytes; Code Mode takes at most ${MAX_CODE_MODE_BYTES} bytes.`,
        );
  if (!code.trim()) throw new CliError(EXIT.usage, `${path === "-" ? "stdin" : path} is empty: give the code to run.`);
  return code;
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams, paint } = context;
  const path = context.positionals[0];
  if (flags.types === true) {
    if (path) throw new CliError(EXIT.usage, "--types prints the declaration only: leave out the file.");
    const open = await openSession(context.target());
    try {
      streams.stdout.write(escapeControlsButColours(await open.session.codeModeTypes()));
    } catch (error) {
      throw open.failure(error, EXIT.internal);
    } finally {
      open[Symbol.dispose]();
    }
    return EXIT.ok;
  }
  if (!path)
    throw new CliError(
      EXIT.usage,
      "Name the file with the code (or - for stdin): gadgets code script.ts. See gadgets code --types.",
    );
  const code = readCode(path);
  const options = runOptions(flagString(flags, "timeout"));
  const open = await openSession(context.target());
  try {
    const printer = new RunPrinter({ streams, json: flags.json === true, paint });
    return await streamRun(context.interrupted, open, printer, (onEvent) =>
      open.session.runCode(code, onEvent, options),
    );
  } finally {
    open[Symbol.dispose]();
  }
}

export const code: Command = {
  usage: "code <file | -> [--timeout MS] [--json] | code --types",
  summary: "run code against this workspace's agents (Code Mode), or print the agents' declaration",
  options: { types: { type: "boolean" }, ...TIMEOUT_OPTION, ...JSON_OPTION },
  maxPositionals: 1,
  run,
};
