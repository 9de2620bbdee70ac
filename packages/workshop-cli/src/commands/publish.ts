/**
 * `gadgets publish [dir]`: uploads the folder and publishes it as the next version of its agent. The
 * Workshop runs the folder's test cases first and refuses a failing version (exit 9) unless
 * `--override-tests` is given, which the version then records.
 */

import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { reportLock, syncDraft } from "../draft-sync.ts";
import { errorCode } from "@gadgets/workshop-shared";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { escapeControls } from "../terminal-text.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags } = context;
  const folder = readGadgetFolder(context.positionals[0] ?? ".");
  const open = await openSession(context.target());
  try {
    let published: { agentId: string; name: string; version: number };
    try {
      const draft = await syncDraft(open.session, folder);
      reportLock(draft, streams.stderr);
      published = await open.session.publishDraft(draft.draftId, { overrideTests: flags["override-tests"] === true });
    } catch (error) {
      if (errorCode(error) === "TESTS_FAILED")
        throw open.failure(
          new Error(
            `${(error as Error).message}\nSee the cases with: gadgets test, or publish anyway with --override-tests.`,
          ),
          EXIT.testsFailed,
        );
      throw open.failure(error, EXIT.invalid);
    }
    const { agentId, version } = published;
    const name = escapeControls(published.name);
    if (flags.json) {
      streams.stdout.write(`${escapeControls(JSON.stringify({ name: published.name, version, agentId }))}\n`);
    } else {
      streams.stdout.write(`${name}@${version}\nagent id: ${agentId}\n`);
      streams.stderr.write(`Call it: gadgets call ${name} --input '…'  (or ${agentId}@${version} for this version)\n`);
    }
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const publish: Command = {
  usage: "publish [dir] [--override-tests] [--json]",
  summary: "publish the folder as the next version of its agent; prints name@N and the agent id",
  options: { ...JSON_OPTION, "override-tests": { type: "boolean" } },
  maxPositionals: 1,
  run,
};
