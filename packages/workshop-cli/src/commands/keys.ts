/**
 * `gadgets keys create|list|revoke`: the workspace's API keys, to hand to an LLM client or a backend
 * instead of the workspace token. Managing keys takes the workspace token; a new key is printed once
 * (stdout, so it can be piped), since the Workshop keeps only its hash.
 */

import { type AgentSummary, type ApiKeyInfo, type ApiKeyScope, errorCode } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, flagString, flagStrings, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { escapeControls } from "../terminal-text.ts";
import { tableText, utcMinute } from "../text-table.ts";

const USAGE = "keys create <name> [--scope call|full] [--agent REF]... | keys list | keys revoke <keyId>";

function scopeFrom(flag: string | undefined): ApiKeyScope {
  if (flag === undefined || flag === "call" || flag === "full") return flag ?? "call";
  throw new CliError(
    EXIT.usage,
    `--scope must be call (list and run published agents) or full (everything but keys), not "${flag}".`,
  );
}

/** A time in the table, to the minute; a key never used says so. */
function minute(at: number | null): string {
  return at === null ? "never" : utcMinute(at);
}

async function create(context: CommandContext, open: OpenSession): Promise<ExitCode> {
  const { streams, flags, paint } = context;
  const name = context.positionals[1];
  if (!name)
    throw new CliError(
      EXIT.usage,
      `Name the key: gadgets keys create <name> (like claude-desktop).\nUsage: gadgets ${USAGE}`,
    );
  const scope = scopeFrom(flagString(flags, "scope"));
  const agents = flagStrings(flags, "agent");
  let made: Awaited<ReturnType<typeof open.session.createKey>>;
  try {
    made = await open.session.createKey({ name, scope, ...(agents.length > 0 ? { agents } : {}) });
  } catch (error) {
    throw open.failure(error, errorCode(error) === "AGENT_NOT_FOUND" ? EXIT.notFound : EXIT.usage);
  }
  if (flags.json) streams.stdout.write(`${escapeControls(JSON.stringify({ key: made.key, info: made.info }))}\n`);
  else streams.stdout.write(`${made.key}\n`);
  const limited = made.info.agents === null ? "all agents" : `${made.info.agents.length} agent(s)`;
  streams.stderr.write(
    `Created API key ${escapeControls(made.info.keyId)} "${escapeControls(made.info.name)}" (scope ${made.info.scope}, ${limited}).\n` +
      `${paint.paint("yellow", "This is the only time the key is shown: the Workshop keeps only its hash. Store it now.")}\n` +
      `Revoke it with: gadgets keys revoke ${escapeControls(made.info.keyId)}\n`,
  );
  return EXIT.ok;
}

async function list(context: CommandContext, open: OpenSession): Promise<ExitCode> {
  const { streams, flags } = context;
  let keys: ApiKeyInfo[];
  let agents: AgentSummary[];
  try {
    [keys, agents] = await Promise.all([open.session.listKeys(), open.session.listAgents()]);
  } catch (error) {
    throw open.failure(error, EXIT.internal);
  }
  if (flags.json) {
    streams.stdout.write(`${escapeControls(JSON.stringify(keys))}\n`);
    return EXIT.ok;
  }
  if (keys.length === 0) {
    streams.stderr.write("No API keys yet: gadgets keys create <name> makes one.\n");
    return EXIT.ok;
  }
  const names = new Map(agents.map((agent) => [agent.agentId, agent.name]));
  const rows = keys.map((key) =>
    [
      key.keyId,
      key.name,
      key.scope,
      key.agents === null ? "all" : key.agents.map((id) => names.get(id) ?? id).join(", "),
      minute(key.createdAt),
      minute(key.lastUsedAt),
    ].map(escapeControls),
  );
  streams.stdout.write(tableText(["KEY ID", "NAME", "SCOPE", "AGENTS", "CREATED", "LAST USED"], rows));
  return EXIT.ok;
}

async function revoke(context: CommandContext, open: OpenSession): Promise<ExitCode> {
  const keyId = context.positionals[1];
  if (!keyId)
    throw new CliError(
      EXIT.usage,
      `Name the key to revoke by its id: gadgets keys revoke <keyId> (gadgets keys list).`,
    );
  let revoked: boolean;
  try {
    revoked = await open.session.revokeKey(keyId);
  } catch (error) {
    throw open.failure(error, EXIT.usage);
  }
  if (!revoked)
    throw new CliError(
      EXIT.notFound,
      `No API key ${escapeControls(keyId)} in this workspace (it may be revoked already): gadgets keys list shows them.`,
    );
  context.streams.stderr.write(
    `Revoked API key ${escapeControls(keyId)}: it is refused from now on, its open sessions included.\n`,
  );
  return EXIT.ok;
}

const ACTIONS = { create, list, revoke } as const;

async function run(context: CommandContext): Promise<ExitCode> {
  const action = context.positionals[0];
  if (action === undefined || !Object.hasOwn(ACTIONS, action))
    throw new CliError(
      EXIT.usage,
      `${action === undefined ? "Say what to do with keys" : `Unknown keys action "${escapeControls(action)}"`}: create, list or revoke.\nUsage: gadgets ${USAGE}`,
    );
  const open = await openSession(context.target());
  try {
    return await ACTIONS[action as keyof typeof ACTIONS](context, open);
  } finally {
    open[Symbol.dispose]();
  }
}

export const keys: Command = {
  usage: USAGE,
  summary: "make an API key to hand to an LLM client or backend instead of the token, list keys, revoke one",
  options: { scope: { type: "string" }, agent: { type: "string", multiple: true }, ...JSON_OPTION },
  maxPositionals: 2,
  run,
};
