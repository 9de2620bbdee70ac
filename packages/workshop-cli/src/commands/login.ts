/**
 * `gadgets login`: creates a workspace on the Workshop (or takes the token of one you have, or an API
 * key someone made for you) and saves it for that Workshop's URL. The token is printed only with --show-token; `--token -` reads it from stdin
 * (unseen at a terminal), which keeps it out of shell history and process lists.
 */

import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString } from "../command.ts";
import { connect, isApiKey, openSession } from "../connection.ts";
import { readConfig, writeConfig } from "../config-store.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readStdinValue } from "../stdin-value.ts";

async function tokenFrom(context: CommandContext, flag: string): Promise<string> {
  // From stdin: typed unseen at a terminal, as secrets are.
  const token =
    flag === "-"
      ? (
          await readStdinValue(context, {
            prompt: "Workspace token or API key (not shown; Enter to finish): ",
            cancelled: "Cancelled: nothing was saved.",
          })
        ).trim()
      : flag;
  if (!token)
    throw new CliError(
      EXIT.usage,
      "--token is empty: give the workspace token (gw_…) or an API key (gk_…), or - to read it from stdin.",
    );
  return token;
}

async function run(context: CommandContext): Promise<ExitCode> {
  const { streams, flags } = context;
  const base = context.target();
  const config = readConfig(base.configPath);
  const given = flagString(flags, "token");
  let saved = config.workspaces[base.url];

  if (given !== undefined) {
    const token = await tokenFrom(context, given);
    const open = await openSession({ ...base, token, tokenSource: "--token" });
    open[Symbol.dispose]();
    saved = { token, workspaceId: open.workspaceId };
    streams.stderr.write(`Logged in to ${base.url} as workspace ${saved.workspaceId}.\n`);
  } else if (saved) {
    streams.stderr.write(
      `Already logged in to ${base.url} as workspace ${saved.workspaceId} (token in ${base.configPath}).\n` +
        "To use another workspace: gadgets login --token <token>.\n",
    );
  } else {
    const client = await connect({ url: base.url, configPath: base.configPath });
    try {
      const created = await client.createWorkspace();
      saved = { token: created.token, workspaceId: created.workspaceId };
    } catch (error) {
      throw new CliError(EXIT.internal, `${base.url} could not create a workspace: ${(error as Error).message}`);
    } finally {
      client[Symbol.dispose]();
    }
    streams.stderr.write(`Created workspace ${saved.workspaceId} on ${base.url}.\n`);
  }

  writeConfig(base.configPath, { ...config, url: base.url, workspaces: { ...config.workspaces, [base.url]: saved } });
  streams.stderr.write(
    isApiKey(saved.token)
      ? `The API key is saved in ${base.configPath} (readable by you alone); commands its scope does not allow are refused, and the workspace's owner can revoke it.\n`
      : `The token is saved in ${base.configPath} (readable by you alone); it is the workspace's only key, so keep a copy: gadgets whoami --show-token.\n`,
  );
  if (flags["show-token"]) streams.stdout.write(`${saved.token}\n`);
  return EXIT.ok;
}

export const login: Command = {
  usage: "login [--token TOKEN|-] [--show-token]",
  summary: "create a workspace on the Workshop (or use yours) and save its token",
  options: { "show-token": { type: "boolean" } },
  maxPositionals: 0,
  run,
};
