/**
 * `gadgets call <name|id[@N]>`: runs a published agent, as a backend would with `getAgent(ref)`, streaming
 * its console like `gadgets run`; exits with the code of the outcome's kind.
 */

import { CliError } from "../cli-error.ts";
import {
  type Command,
  type CommandContext,
  flagString,
  INPUT_OPTIONS,
  JSON_OPTION,
  TIMEOUT_OPTION,
} from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readPayload } from "../payload-input.ts";
import { RunPrinter } from "../run-printer.ts";
import { streamRun } from "../streamed-run.ts";
import { runOptions } from "../run-options.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams, paint } = context;
  const ref = context.positionals[0];
  if (!ref) throw new CliError(EXIT.usage, "Name the agent to call: gadgets call <name|id[@N]> --input JSON.");
  const payload = readPayload({ input: flagString(flags, "input"), inputFile: flagString(flags, "input-file") });
  const options = runOptions(flagString(flags, "timeout"));
  const open = await openSession(context.target());
  const agent = open.session.getAgent(ref);
  try {
    try {
      // Asked first, so an unknown agent is told apart from a run that failed.
      await agent.describe();
    } catch (error) {
      const cause = open.failure(error, EXIT.notFound);
      if (cause.exitCode !== EXIT.notFound) throw cause;
      throw new CliError(
        EXIT.notFound,
        `No agent "${ref}" in this workspace: ${cause.message}\nSee them with gadgets agents.`,
      );
    }
    const printer = new RunPrinter({ streams, json: flags.json === true, paint });
    return await streamRun(context.interrupted, open, printer, (onEvent) =>
      agent.runWithEvents(payload, onEvent, options),
    );
  } finally {
    agent[Symbol.dispose]();
    open[Symbol.dispose]();
  }
}

export const call: Command = {
  usage: "call <name|id[@N]> [--input JSON | --input-file FILE] [--timeout MS] [--json]",
  summary: "run a published agent by name or id (optionally @version) and print its result",
  options: { ...INPUT_OPTIONS, ...TIMEOUT_OPTION, ...JSON_OPTION },
  maxPositionals: 1,
  run,
};
