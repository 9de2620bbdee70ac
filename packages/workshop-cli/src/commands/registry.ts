/**
 * `gadgets registry [set <URL> [--token-stdin] | reset]`: the npm registry this workspace resolves
 * gadget.json's `dependencies` against. A private registry's token is read from stdin only (never an
 * argument, which would stay in shell history and the process list), kept sealed with the workspace and
 * never shown again: the Workshop answers only whether there is one. Drafts already locked keep running
 * their lock; only new or changed dependencies resolve against the new registry.
 */

import { errorCode, type RegistryInfo } from "@gadgets/workshop-shared";
import { CliError } from "../cli-error.ts";
import { type Command, type CommandContext, JSON_OPTION } from "../command.ts";
import { type OpenSession, openSession } from "../connection.ts";
import { EXIT, type ExitCode } from "../exit-codes.ts";
import { readStdinValue } from "../stdin-value.ts";
import { escapeControls } from "../terminal-text.ts";

const USAGE = "registry | registry set <URL> [--token-stdin] | registry reset";

function describe(info: RegistryInfo): string {
  const setting = info.isDefault ? "the Workshop's default" : "this workspace's own";
  const token = info.hasToken ? "kept (never shown)" : "none";
  return `url: ${escapeControls(info.url)}\nsetting: ${setting}\ntoken: ${token}\n`;
}

async function call(open: OpenSession, change: () => Promise<RegistryInfo>): Promise<RegistryInfo> {
  try {
    return await change();
  } catch (error) {
    throw open.failure(error, errorCode(error) === "INVALID_ARGUMENT" ? EXIT.usage : EXIT.internal);
  }
}

async function readToken(context: CommandContext, url: string): Promise<string> {
  const token = await readStdinValue(context, {
    prompt: "Registry token (not shown; Enter to finish): ",
    cancelled: "Cancelled: the registry was not changed.",
  });
  if (token === "")
    throw new CliError(
      EXIT.usage,
      `stdin was empty: pipe the token in, like: printf %s "$NPM_TOKEN" | gadgets registry set ${escapeControls(url)} --token-stdin`,
    );
  return token;
}

function report(context: CommandContext, info: RegistryInfo, said: string): ExitCode {
  if (context.flags.json) context.streams.stdout.write(`${escapeControls(JSON.stringify(info))}\n`);
  else context.streams.stdout.write(describe(info));
  context.streams.stderr.write(`${said}\n`);
  return EXIT.ok;
}

async function run(context: CommandContext): Promise<ExitCode> {
  const [action, url, extra] = context.positionals;
  if (action !== undefined && action !== "set" && action !== "reset")
    throw new CliError(
      EXIT.usage,
      `Unknown registry action "${escapeControls(action)}": set or reset.\nUsage: gadgets ${USAGE}`,
    );
  if (action === "set" && !url)
    throw new CliError(
      EXIT.usage,
      "Name the registry: gadgets registry set https://registry.example.com/ [--token-stdin].",
    );
  if (action === "set" && extra !== undefined)
    throw new CliError(
      EXIT.usage,
      `gadgets registry set takes one URL; a token comes on stdin with --token-stdin, never as an argument (it would stay in your shell history and the process list): printf %s "$NPM_TOKEN" | gadgets registry set ${escapeControls(url ?? "URL")} --token-stdin`,
    );
  if (action !== "set" && (url !== undefined || context.flags["token-stdin"]))
    throw new CliError(EXIT.usage, `Too many arguments.\nUsage: gadgets ${USAGE}`);
  // Read before connecting, so a prompt for the token does not hold a connection open.
  const token = action === "set" && context.flags["token-stdin"] ? await readToken(context, url ?? "") : undefined;
  const open = await openSession(context.target());
  try {
    if (action === undefined) {
      const info = await call(open, () => open.session.getRegistry());
      return report(
        context,
        info,
        "gadgets registry set <URL> [--token-stdin] changes it; gadgets registry reset goes back to the default.",
      );
    }
    if (action === "reset") {
      const info = await call(open, () => open.session.setRegistry(null));
      return report(context, info, "Back to the Workshop's default registry; any token the workspace kept is deleted.");
    }
    const info = await call(open, () => open.session.setRegistry({ url: url ?? "", ...(token ? { token } : {}) }));
    return report(
      context,
      info,
      `Dependencies now resolve against ${escapeControls(info.url)}${info.hasToken ? " with its token, which is not shown again" : " without a token"}. Drafts already locked keep their packages.`,
    );
  } finally {
    open[Symbol.dispose]();
  }
}

export const registry: Command = {
  usage: USAGE,
  summary:
    "show the npm registry this workspace resolves dependencies against, set a private one (its token from stdin), or go back to the default",
  options: { ...JSON_OPTION, "token-stdin": { type: "boolean" } },
  maxPositionals: 3,
  run,
};
