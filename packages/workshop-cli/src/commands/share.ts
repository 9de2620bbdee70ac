/**
 * `gadgets share [dir]`: uploads the folder and prints its /s/ link (an immutable snapshot of the files
 * and the payload), and the /r/ link of the latest run of those same files, when there is one.
 */

import { type Command, type CommandContext, flagString, INPUT_OPTIONS, JSON_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { syncDraft } from "../draft-sync.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { latestDraftRun } from "../latest-draft-run.ts";
import { readPayload } from "../payload-input.ts";
import { recordUrl, shareUrl } from "../share-links.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags } = context;
  const folder = readGadgetFolder(context.positionals[0] ?? ".");
  const payload = readPayload(
    { input: flagString(flags, "input"), inputFile: flagString(flags, "input-file") },
    folder.manifest.exampleInput ?? null,
  );
  const target = context.target();
  const open = await openSession(target);
  try {
    let snapshot: string;
    let record: string | undefined;
    try {
      const draft = await syncDraft(open.session, folder);
      snapshot = shareUrl(target.url, (await open.session.shareDraft(draft.draftId, payload)).shareId);
      const latest = await latestDraftRun(open.session, draft);
      if (latest) record = recordUrl(target.url, (await open.session.shareRun(latest.runId)).recordId);
    } catch (error) {
      throw open.failure(error, EXIT.invalid);
    }
    if (flags.json) {
      streams.stdout.write(`${JSON.stringify({ share: snapshot, record: record ?? null })}\n`);
      return EXIT.ok;
    }
    streams.stdout.write(`share: ${snapshot}\n`);
    if (record) streams.stdout.write(`run record: ${record}\n`);
    else
      streams.stderr.write("No run of these files yet, so no run record: gadgets run --share runs and shares one.\n");
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const share: Command = {
  usage: "share [dir] [--input JSON | --input-file FILE] [--json]",
  summary: "print the folder's /s/ share link, and the /r/ link of its latest run",
  options: { ...INPUT_OPTIONS, ...JSON_OPTION },
  maxPositionals: 1,
  run,
};
