/**
 * `gadgets test [dir]`: uploads the folder and runs its `gadget.tests.json` cases on the Workshop,
 * printing one line per case as it finishes and a summary. Exits 0 when every case passes, 9 when
 * any fails (for CI), 3 when the test file is invalid.
 */

import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { reportLock, syncDraft } from "../draft-sync.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { escapeControls } from "../terminal-text.ts";
import { formatCaseResult, formatSummary } from "../test-table.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags, paint } = context;
  const folder = readGadgetFolder(context.positionals[0] ?? ".");
  const open = await openSession(context.target());
  try {
    const draft = await syncDraft(open.session, folder).catch((error: unknown) => {
      throw open.failure(error, EXIT.invalid);
    });
    reportLock(draft, streams.stderr);
    const summary = await open.session
      .runTests(draft.draftId, (result) => {
        if (flags.json) streams.stdout.write(`${escapeControls(JSON.stringify({ type: "case", ...result }))}\n`);
        else streams.stdout.write(formatCaseResult(result, paint));
      })
      .catch((error: unknown) => {
        throw open.failure(error, EXIT.invalid);
      });
    if (flags.json) {
      const { results: _results, ...rest } = summary as typeof summary & { results?: unknown };
      streams.stdout.write(`${escapeControls(JSON.stringify({ type: "summary", ...rest }))}\n`);
    } else streams.stdout.write(formatSummary(summary, paint));
    if (summary.status === "invalid") return EXIT.invalid;
    return summary.status === "failed" ? EXIT.testsFailed : EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const test: Command = {
  usage: "test [dir] [--json]",
  summary: "run the folder's gadget.tests.json cases; exits 9 if any fails (for CI)",
  options: { ...JSON_OPTION },
  maxPositionals: 1,
  run,
};
