/**
 * `gadgets schedules [list] [<agent>]`, `gadgets schedules pause|resume <agent>`: the schedules of the
 * workspace's published agents (their `triggers.schedules`) — when each fires next, its last firing and
 * outcome, firings skipped — and pausing or resuming all schedules of one agent.
 */

import { errorCode, type ScheduleInfo } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { escapeControls } from "../terminal-text.ts";
import { tableText, utcSecond } from "../text-table.ts";

const USAGE = "schedules [list] [<agent>] | schedules pause <agent> | schedules resume <agent>";

/** A time in the table, to the second; none yet is a dash. */
function second(at: number | null): string {
  return at === null ? "-" : utcSecond(at);
}

function print(context: CommandContext, schedules: ScheduleInfo[]): void {
  const { streams, flags } = context;
  if (flags.json) {
    streams.stdout.write(`${escapeControls(JSON.stringify(schedules))}\n`);
    return;
  }
  const rows = schedules.map((info) =>
    [
      `${info.agentName}@${info.version}`,
      info.schedule,
      info.paused ? "paused" : second(info.nextAt),
      second(info.lastAt),
      info.lastAt === null ? "-" : (info.lastOutcome ?? "running"),
      String(info.skipped),
    ].map(escapeControls),
  );
  streams.stdout.write(tableText(["AGENT", "SCHEDULE", "NEXT", "LAST", "OUTCOME", "SKIPPED"], rows));
}

async function list(context: CommandContext, open: OpenSession, agent: string | undefined): Promise<ExitCode> {
  let schedules: ScheduleInfo[];
  try {
    schedules = await open.session.listSchedules();
  } catch (error) {
    throw open.failure(error, EXIT.internal);
  }
  if (agent !== undefined) schedules = schedules.filter((info) => info.agentId === agent || info.agentName === agent);
  if (schedules.length === 0 && !context.flags.json) {
    context.streams.stderr.write(
      agent === undefined
        ? 'No schedules: an agent published with "triggers": { "schedules": [{ "every": "10m" }] } in its gadget.json has one.\n'
        : `No schedules for ${escapeControls(agent)}.\n`,
    );
    return EXIT.ok;
  }
  print(context, schedules);
  return EXIT.ok;
}

async function pause(context: CommandContext, open: OpenSession, agent: string, paused: boolean): Promise<ExitCode> {
  let schedules: ScheduleInfo[];
  try {
    schedules = await open.session.pauseSchedules(agent, paused);
  } catch (error) {
    const code = errorCode(error);
    throw open.failure(
      error,
      code === "AGENT_NOT_FOUND" ? EXIT.notFound : code === "INVALID_ARGUMENT" ? EXIT.usage : EXIT.internal,
    );
  }
  const what = paused ? "Paused" : "Resumed";
  context.streams.stderr.write(
    schedules.length === 0
      ? `${escapeControls(agent)} has no schedules.\n`
      : `${what} ${schedules.length} schedule${schedules.length === 1 ? "" : "s"} of ${escapeControls(agent)}.\n`,
  );
  print(context, schedules);
  return EXIT.ok;
}

async function run(context: CommandContext): Promise<ExitCode> {
  const [first, ...rest] = context.positionals;
  const action = first === "pause" || first === "resume" || first === "list" ? first : "list";
  // Without an action word, `gadgets schedules <agent>` lists that agent's.
  const args = first === action ? rest : context.positionals;
  if (args.length > 1) throw new CliError(EXIT.usage, `Too many arguments.\nUsage: gadgets ${USAGE}`);
  const agent = args[0];
  if (action !== "list" && !agent)
    throw new CliError(EXIT.usage, `Name the agent: gadgets schedules ${action} <agent> (its name or id).`);
  const open = await openSession(context.target());
  try {
    if (action === "list") return await list(context, open, agent);
    return await pause(context, open, agent ?? "", action === "pause");
  } finally {
    open[Symbol.dispose]();
  }
}

export const schedules: Command = {
  usage: USAGE,
  summary: "list the published agents' schedules (next and last firing, outcome, skipped), pause or resume an agent's",
  options: { ...JSON_OPTION },
  maxPositionals: 2,
  run,
};
