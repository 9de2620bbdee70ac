/** `gadgets agents`: the workspace's published agents. */

import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";

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
      streams.stdout.write(`${JSON.stringify(rows)}\n`);
      return EXIT.ok;
    }
    if (agents.length === 0) {
      streams.stderr.write("No published agents yet: gadgets publish <dir> publishes one.\n");
      return EXIT.ok;
    }
    const width = Math.max(...agents.map((agent) => `${agent.name}@${agent.latestVersion}`.length));
    for (const agent of agents) {
      const label = `${agent.name}@${agent.latestVersion}`.padEnd(width);
      streams.stdout.write(`${label}  ${agent.agentId}  ${paint.paint("dim", agent.description)}\n`);
    }
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
