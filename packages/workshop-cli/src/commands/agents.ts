/** `gadgets agents`: the workspace's published agents. */

import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { escapeControls } from "../terminal-text.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags, paint } = context;
  const open = await openSession(context.target());
  try {
    let agents: Awaited<ReturnType<typeof open.session.listAgents>>;
    try {
      agents = await open.session.listAgents();
    } catch (error) {
      throw open.failure(error, EXIT.internal);
    }
    if (flags.json) {
      const rows = agents.map(({ agentId, name, latestVersion, description, updatedAt, grants }) => ({
        agentId,
        name,
        latestVersion,
        description,
        updatedAt,
        grants,
      }));
      streams.stdout.write(`${escapeControls(JSON.stringify(rows))}\n`);
      return EXIT.ok;
    }
    if (agents.length === 0) {
      streams.stderr.write("No published agents yet: gadgets publish <dir> publishes one.\n");
      return EXIT.ok;
    }
    // Names and descriptions are the gadgets' own words: escaped, then measured and styled.
    const labels = agents.map((agent) => escapeControls(`${agent.name}@${agent.latestVersion}`));
    const width = Math.max(...labels.map((label) => label.length));
    agents.forEach((agent, i) => {
      const line = `${labels[i]?.padEnd(width)}  ${escapeControls(agent.agentId)}`;
      streams.stdout.write(`${line}  ${paint.paint("dim", escapeControls(agent.description))}\n`);
    });
    return EXIT.ok;
  } finally {
    open[Symbol.dispose]();
  }
}

export const agents: Command = {
  usage: "agents [--json]",
  summary: "list the workspace's published agents (name@latest, agent id, description)",
  options: { ...JSON_OPTION },
  maxPositionals: 0,
  run,
};
