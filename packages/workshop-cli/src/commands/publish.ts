/**
 * `gadgets publish [dir]`: uploads the folder and publishes it as the next version of its agent. The
 * Workshop runs the folder's test cases first and refuses a failing version (exit 9) unless
 * `--override-tests` is given, which the version then records.
 */

import { type AgentVersion, errorCode, type TestStatus } from "@gadgets/workshop-shared";
import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { reportLock, syncDraft } from "../draft-sync.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readGadgetFolder } from "../gadget-folder.ts";
import { escapeControls } from "../terminal-text.ts";

export type Published = Pick<AgentVersion, "agentId" | "name" | "version" | "endpointUrl">;

/** What publishing printed: `name@N`, the agent id and its HTTP endpoint (if it has one) on stdout. */
export function publishedText(published: Published, json: boolean): { stdout: string; stderr?: string } {
  const { agentId, version, endpointUrl } = published;
  if (json) {
    const fields = { name: published.name, version, agentId, ...(endpointUrl ? { endpointUrl } : {}) };
    return { stdout: `${escapeControls(JSON.stringify(fields))}\n` };
  }
  const name = escapeControls(published.name);
  const endpoint = endpointUrl ? `endpoint: ${escapeControls(endpointUrl)}\n` : "";
  return {
    stdout: `${name}@${version}\nagent id: ${agentId}\n${endpoint}`,
    stderr: `Call it: gadgets call ${name} --input '…'  (or ${agentId}@${version} for this version)\n`,
  };
}

/**
 * Why publishing was refused, in this command line's words (the Workshop's name an API option): which
 * cases failed, from the status the refused test run left, and the flag that publishes anyway.
 */
export function testsRefusedMessage(status: TestStatus | null): string {
  const advice = "See the cases with gadgets test, or publish anyway with --override-tests.";
  if (!status || status.status === "passed" || status.status === "none")
    return `Not published: the test cases failed. ${advice}`;
  const saved = `saved #${status.version}`;
  if (status.status === "invalid") return `Not published: the gadget.tests.json of ${saved} is invalid. ${advice}`;
  const failed = status.cases.filter((testCase) => testCase.status === "failed").map((testCase) => testCase.name);
  const names = failed.slice(0, 5).map((name) => JSON.stringify(name));
  const more = failed.length > names.length ? `, and ${failed.length - names.length} more` : "";
  return `Not published: ${status.failed} of ${status.total} test cases of ${saved} failed (${names.join(", ")}${more}). ${advice}`;
}

/** The last test status of the draft, or null if it cannot be had (an API key may not read it). */
async function lastTestStatus(open: OpenSession, draftId: string): Promise<TestStatus | null> {
  return open.session.lastTestStatus(draftId).catch(() => null);
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags } = context;
  const folder = readGadgetFolder(context.positionals[0] ?? ".");
  const open = await openSession(context.target());
  try {
    let published: Published;
    let draftId: string | undefined;
    try {
      const draft = await syncDraft(open.session, folder);
      draftId = draft.draftId;
      reportLock(draft, streams.stderr);
      published = await open.session.publishDraft(draft.draftId, { overrideTests: flags["override-tests"] === true });
    } catch (error) {
      if (errorCode(error) === "TESTS_FAILED" && draftId !== undefined) {
        const status = await lastTestStatus(open, draftId);
        throw open.failure(new Error(testsRefusedMessage(status)), EXIT.testsFailed);
      }
      throw open.failure(error, EXIT.invalid);
    }
    const text = publishedText(published, flags.json === true);
    streams.stdout.write(text.stdout);
    if (text.stderr) streams.stderr.write(text.stderr);
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const publish: Command = {
  usage: "publish [dir] [--override-tests] [--json]",
  summary: "publish the folder as the next version of its agent; prints name@N, the agent id and its endpoint",
  options: { ...JSON_OPTION, "override-tests": { type: "boolean" } },
  maxPositionals: 1,
  run,
};
