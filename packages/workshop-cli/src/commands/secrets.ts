/**
 * `gadgets secrets set|list|rm`: the workspace's secrets, which agents read as `env.secrets.NAME` or have
 * put into their fetch headers. A value is read from stdin only — never from an argument, which would stay
 * in shell history and the process list — and is never shown again: the Workshop returns names and sizes.
 */

import { errorCode, type SecretInfo } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readStdinValue } from "../stdin-value.ts";
import { escapeControls } from "../terminal-text.ts";
import { tableText, utcMinute } from "../text-table.ts";

const USAGE = "secrets set <NAME> (value on stdin) | secrets list | secrets rm <NAME>";

async function set(context: CommandContext, open: OpenSession, name: string): Promise<ExitCode> {
  const value = await readStdinValue(context, {
    prompt: "Value (not shown; Enter to finish): ",
    cancelled: "Cancelled: no secret was set.",
  });
  if (value === "")
    throw new CliError(
      EXIT.usage,
      `stdin was empty: pipe the value in, like: printf %s "$TOKEN" | gadgets secrets set ${escapeControls(name)}`,
    );
  let info: SecretInfo;
  try {
    info = await open.session.setSecret(name, value);
  } catch (error) {
    throw open.failure(error, EXIT.usage);
  }
  if (context.flags.json) context.streams.stdout.write(`${escapeControls(JSON.stringify(info))}\n`);
  const used = info.usedBy.length > 0 ? `used by ${info.usedBy.join(", ")}` : "granted by no published agent yet";
  context.streams.stderr.write(
    `Set secret ${escapeControls(info.name)} (${info.bytes} bytes, ${escapeControls(used)}). Its value is not shown again.\n`,
  );
  return EXIT.ok;
}

async function list(context: CommandContext, open: OpenSession): Promise<ExitCode> {
  const { streams, flags } = context;
  let secrets: SecretInfo[];
  try {
    secrets = await open.session.listSecrets();
  } catch (error) {
    throw open.failure(error, EXIT.internal);
  }
  if (flags.json) {
    streams.stdout.write(`${escapeControls(JSON.stringify(secrets))}\n`);
    return EXIT.ok;
  }
  if (secrets.length === 0) {
    streams.stderr.write("No secrets yet: printf %s VALUE | gadgets secrets set NAME sets one.\n");
    return EXIT.ok;
  }
  const rows = secrets.map((secret) =>
    [secret.name, String(secret.bytes), utcMinute(secret.updatedAt), secret.usedBy.join(", ") || "-"].map(
      escapeControls,
    ),
  );
  streams.stdout.write(tableText(["NAME", "BYTES", "SET", "USED BY"], rows));
  return EXIT.ok;
}

async function rm(context: CommandContext, open: OpenSession, name: string): Promise<ExitCode> {
  let deleted: boolean;
  try {
    deleted = await open.session.deleteSecret(name);
  } catch (error) {
    throw open.failure(error, errorCode(error) === "INVALID_ARGUMENT" ? EXIT.usage : EXIT.internal);
  }
  if (!deleted)
    throw new CliError(
      EXIT.notFound,
      `No secret ${escapeControls(name)} in this workspace: gadgets secrets list shows them.`,
    );
  context.streams.stderr.write(
    `Deleted secret ${escapeControls(name)}: runs from now on get none by that name (a header grant naming it refuses its fetch).\n`,
  );
  return EXIT.ok;
}

async function run(context: CommandContext): Promise<ExitCode> {
  const [action, name, extra] = context.positionals;
  if (action !== "set" && action !== "list" && action !== "rm")
    throw new CliError(
      EXIT.usage,
      `${action === undefined ? "Say what to do with secrets" : `Unknown secrets action "${escapeControls(action)}"`}: set, list or rm.\nUsage: gadgets ${USAGE}`,
    );
  if (action !== "list" && !name)
    throw new CliError(EXIT.usage, `Name the secret: gadgets secrets ${action} <NAME> (like GITHUB_TOKEN).`);
  if (action === "set" && extra !== undefined)
    throw new CliError(
      EXIT.usage,
      `gadgets secrets set takes the value on stdin, never as an argument (it would stay in your shell history and the process list): printf %s "$VALUE" | gadgets secrets set ${escapeControls(name ?? "NAME")}`,
    );
  if ((action === "list" && name !== undefined) || (action === "rm" && extra !== undefined))
    throw new CliError(EXIT.usage, `Too many arguments.\nUsage: gadgets ${USAGE}`);
  const open = await openSession(context.target());
  try {
    if (action === "list") return await list(context, open);
    if (action === "set") return await set(context, open, name ?? "");
    return await rm(context, open, name ?? "");
  } finally {
    open[Symbol.dispose]();
  }
}

export const secrets: Command = {
  usage: USAGE,
  summary: "set a workspace secret (value from stdin) for agents to use, list secrets (never their values), delete one",
  options: { ...JSON_OPTION },
  maxPositionals: 3,
  run,
};
