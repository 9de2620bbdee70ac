/** `gadgets whoami`: which Workshop and workspace the other commands use, and where the token comes from. */

import type { Command, CommandContext } from "../command.ts";
import { openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";

async function run(context: CommandContext): Promise<ExitCode> {
  const target = context.target();
  const open = await openSession(target);
  open[Symbol.dispose]();
  const from = target.tokenSource === "config" ? target.configPath : target.tokenSource;
  const { stdout } = context.streams;
  stdout.write(`url: ${target.url}\nworkspace: ${open.workspaceId}\ntoken from: ${from}\n`);
  if (context.flags["show-token"]) stdout.write(`token: ${target.token}\n`);
  return EXIT.ok;
}

export const whoami: Command = {
  usage: "whoami [--show-token]",
  summary: "show the Workshop URL, the workspace and where its token comes from",
  options: { "show-token": { type: "boolean" } },
  maxPositionals: 0,
  run,
};
