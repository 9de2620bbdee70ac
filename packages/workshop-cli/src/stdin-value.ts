/**
 * A secret value (a workspace secret, a registry token) read from stdin only — never from an argument,
 * which would stay in shell history and the process list: typed unseen at a terminal, else everything
 * piped in, less one final line break.
 */

import { readFileSync } from "node:fs";
import { CliError } from "./cli-error.ts";
import type { CommandContext } from "./command.ts";
import { EXIT } from "./exit-codes.ts";

export interface HiddenPrompt {
  /** Shown at a terminal, like "Value (not shown; Enter to finish): ". */
  prompt: string;
  /** The error for Ctrl+C, saying that nothing changed. */
  cancelled: string;
}

/** Reads a line from a terminal without echoing it. */
function readHidden(write: (text: string) => void, { prompt, cancelled }: HiddenPrompt): Promise<string> {
  const input = process.stdin;
  write(prompt);
  return new Promise((resolve, reject) => {
    let value = "";
    input.setRawMode(true);
    input.setEncoding("utf8");
    input.resume();
    const done = (error?: Error) => {
      input.setRawMode(false);
      input.pause();
      input.off("data", onData);
      write("\n");
      if (error) reject(error);
      else resolve(value);
    };
    const onData = (chunk: string) => {
      for (const char of chunk) {
        if (char === "\r" || char === "\n") return done();
        if (char === "\u0003") return done(new CliError(EXIT.cancelled, cancelled));
        if (char === "\u007f" || char === "\b") value = value.slice(0, -1);
        else value += char;
      }
    };
    input.on("data", onData);
  });
}

export async function readStdinValue(context: CommandContext, hidden: HiddenPrompt): Promise<string> {
  if (process.stdin.isTTY) return readHidden((text) => context.streams.stderr.write(text), hidden);
  return readFileSync(0, "utf8").replace(/\r?\n$/, "");
}
