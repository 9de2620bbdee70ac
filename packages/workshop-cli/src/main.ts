/**
 * `gadgets`: the Workshop from a terminal. A third client of the same contract as the IDE and backends
 * (`createRpcClient`): log in, scaffold a gadget, run it with its console streaming, watch it, publish,
 * call and share it. Each way a command can end has its own exit code (exit-codes.ts).
 */

import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { protectDashedIds } from "./dashed-ids.ts";
import { CliError } from "./cli-error.ts";
import type { Command, CommandContext } from "./command.ts";
import { add } from "./commands/add.ts";
import { agents } from "./commands/agents.ts";
import { call } from "./commands/call.ts";
import { code } from "./commands/code.ts";
import { dev } from "./commands/dev.ts";
import { init } from "./commands/init.ts";
import { keys } from "./commands/keys.ts";
import { login } from "./commands/login.ts";
import { logs } from "./commands/logs.ts";
import { publish } from "./commands/publish.ts";
import { registry } from "./commands/registry.ts";
import { runCommand } from "./commands/run.ts";
import { schedules } from "./commands/schedules.ts";
import { secrets } from "./commands/secrets.ts";
import { share } from "./commands/share.ts";
import { test } from "./commands/test.ts";
import { whoami } from "./commands/whoami.ts";
import { type ConnectionFlags, resolveTarget } from "./connection.ts";
import { EXIT, type ExitCode, exitCodeWords } from "./exit-codes.ts";
import type { OutputStreams } from "./run-printer.ts";
import { colorsWanted, painter } from "./terminal-style.ts";
import { escapeControls, escapeControlsButColours } from "./terminal-text.ts";

const COMMANDS: Record<string, Command> = {
  login,
  whoami,
  init,
  add,
  run: runCommand,
  test,
  dev,
  publish,
  agents,
  call,
  logs,
  code,
  share,
  keys,
  secrets,
  schedules,
  registry,
};

const GLOBAL_OPTIONS = {
  url: { type: "string" },
  token: { type: "string" },
  color: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/**
 * The global options written before the command's name (`gadgets --url U --no-color agents`), split off
 * so they are parsed with the command's own; stops at the first argument that is not one.
 */
export function leadingGlobalOptions(argv: readonly string[]): { globals: string[]; rest: string[] } {
  let i = 0;
  while (i < argv.length) {
    const arg = argv[i] as string;
    const type = arg.startsWith("--") ? globalOptionType(arg.slice(2).split("=")[0] as string) : undefined;
    if (!type) break;
    // `--url U` takes the next argument as its value; `--url=U` and booleans do not.
    i += type === "string" && !arg.includes("=") && i + 1 < argv.length ? 2 : 1;
  }
  return { globals: argv.slice(0, i), rest: argv.slice(i) };
}

/** The type of the global option `--name` (or `--no-name`); `--help` keeps its own place, the command's. */
function globalOptionType(name: string): "string" | "boolean" | undefined {
  const key = name.startsWith("no-") ? name.slice(3) : name;
  if (key === "help" || !Object.hasOwn(GLOBAL_OPTIONS, key)) return undefined;
  const { type } = GLOBAL_OPTIONS[key as keyof typeof GLOBAL_OPTIONS];
  return key === name || type === "boolean" ? type : undefined;
}

function usage(): string {
  const lines = Object.values(COMMANDS).map((command) => `  gadgets ${command.usage}\n      ${command.summary}`);
  return `gadgets: run, watch, publish, call and share Gadget Workshop gadgets from a terminal.

Usage:
${lines.join("\n")}

Every command takes, before or after its name, --url URL (else WORKSHOP_URL, else the last login, else
http://127.0.0.1:8787), --token TOKEN (else WORKSHOP_TOKEN, else the token saved by gadgets login; an API
key gk_… works too, within its scope), --color / --no-color.

${wrapped(`Exit codes: ${exitCodeWords().join(", ")}.`)}
`;
}

/** Help text is kept to this many columns, as the lines written out above are. */
const HELP_WIDTH = 105;

/** Text broken between words into lines of at most HELP_WIDTH characters. */
function wrapped(text: string): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    if (line && `${line} ${word}`.length > HELP_WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join("\n");
}

function version(): string {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return manifest.version;
}

/**
 * The streams as commands get them. Each command escapes the data it prints before styling it
 * (terminal-text.ts); this is the guard behind them: whatever a path that forgot writes, only colour
 * codes reach the terminal raw.
 */
function guarded(streams: OutputStreams): OutputStreams {
  return {
    stdout: { write: (text) => streams.stdout.write(escapeControlsButColours(text)) },
    stderr: { write: (text) => streams.stderr.write(escapeControlsButColours(text)) },
  };
}

/** Runs one command line; resolves with the exit code. */
export async function main(argv: string[], given: OutputStreams, interrupted: AbortSignal): Promise<ExitCode> {
  const streams = guarded(given);
  const { globals, rest: afterGlobals } = leadingGlobalOptions(argv);
  const [name, ...commandArgs] = afterGlobals;
  const rest = [...globals, ...commandArgs];
  if (name === undefined || name === "help" || name === "--help" || name === "-h") {
    streams.stdout.write(usage());
    return name === undefined ? EXIT.usage : EXIT.ok;
  }
  if (name === "--version" || name === "-v") {
    streams.stdout.write(`${version()}\n`);
    return EXIT.ok;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  const paint = painter(colorsWanted(process.stderr, undefined));
  try {
    if (!command) throw new CliError(EXIT.usage, `Unknown command "${name}". Run gadgets --help for the commands.`);
    let parsed: ReturnType<typeof parseArgs>;
    try {
      const options = { ...GLOBAL_OPTIONS, ...command.options };
      parsed = parseArgs({
        args: protectDashedIds(rest, options),
        options,
        allowPositionals: true,
        allowNegative: true,
        strict: true,
      });
    } catch (error) {
      throw new CliError(EXIT.usage, `${(error as Error).message}\nUsage: gadgets ${command.usage}`);
    }
    const flags = parsed.values as CommandContext["flags"];
    if (flags.help) {
      streams.stdout.write(`Usage: gadgets ${command.usage}\n${command.summary}\n`);
      return EXIT.ok;
    }
    if (parsed.positionals.length > command.maxPositionals) {
      throw new CliError(
        EXIT.usage,
        `Too many arguments: ${parsed.positionals.join(" ")}\nUsage: gadgets ${command.usage}`,
      );
    }
    const connection: ConnectionFlags = {
      ...(typeof flags.url === "string" ? { url: flags.url } : {}),
      ...(typeof flags.token === "string" ? { token: flags.token } : {}),
    };
    const colored = painter(colorsWanted(process.stderr, typeof flags.color === "boolean" ? flags.color : undefined));
    return await command.run({
      positionals: parsed.positionals,
      flags,
      streams,
      paint: colored,
      target: () => resolveTarget(connection),
      interrupted,
    });
  } catch (error) {
    if (error instanceof CliError) {
      // Refusals carry the Workshop's words and paths from disk: data, escaped before it is styled.
      streams.stderr.write(`${paint.paint("red", `error: ${escapeControls(error.message)}`)}\n`);
      return error.exitCode;
    }
    streams.stderr.write(
      `${paint.paint("red", `internal error: ${escapeControls(error instanceof Error ? (error.stack ?? error.message) : String(error))}`)}\n`,
    );
    return EXIT.internal;
  }
}
