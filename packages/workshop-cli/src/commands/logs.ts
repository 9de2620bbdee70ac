/**
 * `gadgets logs <agent>`: the agent's invocation log — its recent runs, oldest first, one line each on
 * stdout (run-log.ts) — however they started: over the API, MCP, its HTTP endpoint or a schedule.
 * `--follow` then asks again every second and prints each new run with its console lines (on stderr,
 * as `gadgets call` prints them) until Ctrl+C, which ends it with 0. Runs that triggers start belong
 * to no session, so nothing could push them here: polling is the one way to hear of them.
 */

import { setTimeout as sleep } from "node:timers/promises";
import { errorCode, MAX_LIST_LIMIT, type RunSummary, type RunVia } from "@gadgets/workshop-shared";
import { RUN_VIAS } from "@gadgets/workshop-shared/schemas";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { NewRuns, runLine } from "../run-log.ts";
import { RunPrinter } from "../run-printer.ts";
import { escapeControls } from "../terminal-text.ts";

const USAGE = "logs <name|id> [--via rpc|mcp|http|schedule] [--follow] [--limit N] [--json]";
/** Runs listed at first when --limit is left out: a screenful. */
const DEFAULT_LIMIT = 20;
/** How often --follow asks for new runs: soon enough to feel live, one small call a second. */
const FOLLOW_EVERY_MS = 1000;
/** Runs each --follow poll asks for; when all are new, it asks for the most the Workshop lists, to miss none. */
const FOLLOW_POLL_LIMIT = 20;

function viaFrom(flag: string | undefined): RunVia | undefined {
  if (flag === undefined) return undefined;
  const via = RUN_VIAS.find((known) => known === flag);
  if (via) return via;
  throw new CliError(
    EXIT.usage,
    `--via must be one of ${RUN_VIAS.join(", ")} (rpc: the API and the IDE), not "${escapeControls(flag)}".`,
  );
}

function limitFrom(flag: string | undefined): number {
  if (flag === undefined) return DEFAULT_LIMIT;
  const limit = /^\d+$/.test(flag) ? Number(flag) : Number.NaN;
  if (limit >= 1 && limit <= MAX_LIST_LIMIT) return limit;
  throw new CliError(
    EXIT.usage,
    `--limit must be a whole number from 1 to ${MAX_LIST_LIMIT}, not "${escapeControls(flag)}".`,
  );
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { flags, streams, paint, interrupted } = context;
  const agent = context.positionals[0];
  if (!agent) throw new CliError(EXIT.usage, `Name the agent whose runs to show.\nUsage: gadgets ${USAGE}`);
  const via = viaFrom(flagString(flags, "via"));
  const limit = limitFrom(flagString(flags, "limit"));
  const json = flags.json === true;
  const open = await openSession(context.target());
  const filter = { agent, ...(via ? { via } : {}) };

  const list = async (rows: number): Promise<RunSummary[]> => {
    try {
      return await open.session.listRuns(rows, filter);
    } catch (error) {
      if (errorCode(error) !== "AGENT_NOT_FOUND") throw open.failure(error, EXIT.internal);
      throw new CliError(EXIT.notFound, `${(error as Error).message}\nSee them with gadgets agents.`);
    }
  };
  const print = (summary: RunSummary, extra: object = {}) =>
    streams.stdout.write(`${json ? escapeControls(JSON.stringify({ ...summary, ...extra })) : runLine(summary)}\n`);

  try {
    const seen = new NewRuns();
    // Following, the runs a poll will list count as seen from the start: only later ones are new.
    const listed = await list(flags.follow ? Math.max(limit, FOLLOW_POLL_LIMIT) : limit);
    const first = seen.take(listed).slice(-limit);
    for (const summary of first) print(summary);
    if (!flags.follow) {
      if (first.length === 0 && !json) streams.stderr.write(`No runs of ${escapeControls(agent)} yet.\n`);
      return EXIT.ok;
    }
    if (!json)
      streams.stderr.write(`${paint.paint("dim", `Following the runs of ${escapeControls(agent)}; Ctrl+C ends.`)}\n`);
    while (!interrupted.aborted) {
      await sleep(FOLLOW_EVERY_MS, undefined, { signal: interrupted }).catch(() => {});
      if (interrupted.aborted) break;
      const polled = await list(FOLLOW_POLL_LIMIT);
      let fresh = seen.take(polled);
      if (fresh.length === FOLLOW_POLL_LIMIT) fresh = [...fresh, ...seen.take(await list(MAX_LIST_LIMIT))];
      fresh.sort((a, b) => a.startedAt - b.startedAt);
      for (const summary of fresh) {
        if (interrupted.aborted) break;
        await printWithConsole(context, open, summary, print);
      }
    }
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

/** A new run's line, then its console as `gadgets call` shows it (the record says it all: the run is over). */
async function printWithConsole(
  context: CommandContext,
  open: OpenSession,
  summary: RunSummary,
  print: (summary: RunSummary, extra?: object) => void,
): Promise<void> {
  const { streams, paint, flags } = context;
  const json = flags.json === true;
  let events: Awaited<ReturnType<typeof open.session.getRun>>["events"] | undefined;
  try {
    events = (await open.session.getRun(summary.runId)).events;
  } catch (error) {
    // Pruned already (records are kept for the latest runs only): its line is all there is.
    if (open.lost) throw open.failure(error, EXIT.internal);
  }
  if (json) {
    print(summary, events ? { events } : {});
    return;
  }
  print(summary);
  const printer = new RunPrinter({ streams, json: false, paint });
  for (const event of events ?? []) printer.onEvent(event);
}

export const logs: Command = {
  usage: USAGE,
  summary:
    "list a published agent's recent runs (time, outcome, duration, trigger, HTTP status); --follow prints new ones with their console",
  options: {
    via: { type: "string" },
    follow: { type: "boolean", short: "f" },
    limit: { type: "string" },
    ...JSON_OPTION,
  },
  maxPositionals: 1,
  run,
};
