/**
 * Runs the real `gadgets` command line as a child process, the way a user does from this repository
 * (`pnpm exec gadgets` → the linked bin in node_modules/.bin), and records every output chunk with its
 * arrival time so tests can tell streamed output from output written at the end.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
/** The shim pnpm links for the root devDependency `@gadgets/cli`. */
export const GADGETS_BIN = join(REPO_ROOT, "node_modules", ".bin", "gadgets");

export interface Chunk {
  stream: "stdout" | "stderr";
  text: string;
  at: number;
}

export interface CliRun {
  child: ChildProcess;
  chunks: Chunk[];
  stdout(): string;
  stderr(): string;
  /** Resolves when some output of `stream` contains `text`; rejects if the process ends first. */
  waitFor(text: string | RegExp, stream?: "stdout" | "stderr"): Promise<Chunk>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export interface CliEnvironment {
  /** XDG_CONFIG_HOME of this user: where `gadgets login` keeps tokens. */
  configHome: string;
  url: string;
  cwd: string;
  extra?: Record<string, string>;
}

/** A fresh user: their own config folder and working folder. */
export function newCliUser(url: string): CliEnvironment {
  const home = mkdtempSync(join(tmpdir(), "gadgets-cli-"));
  return { configHome: join(home, "config"), url, cwd: home };
}

export function startCli(args: string[], user: CliEnvironment, options: { stdin?: string } = {}): CliRun {
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: user.cwd,
    XDG_CONFIG_HOME: user.configHome,
    WORKSHOP_URL: user.url,
    NO_COLOR: "1",
    ...user.extra,
  };
  const child = spawn(GADGETS_BIN, args, { cwd: user.cwd, env, stdio: ["pipe", "pipe", "pipe"] });
  child.stdin?.end(options.stdin ?? "");
  const chunks: Chunk[] = [];
  const waiters = new Set<() => void>();
  const joined = (stream?: "stdout" | "stderr") =>
    chunks
      .filter((chunk) => stream === undefined || chunk.stream === stream)
      .map((chunk) => chunk.text)
      .join("");
  for (const stream of ["stdout", "stderr"] as const) {
    child[stream]?.setEncoding("utf8");
    child[stream]?.on("data", (text: string) => {
      chunks.push({ stream, text, at: performance.now() });
      for (const waiter of waiters) waiter();
    });
  }
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((done) => {
    child.on("close", (code, signal) => {
      done({ code, signal, at: performance.now() });
      for (const waiter of waiters) waiter();
    });
  });
  let ended = false;
  void exited.then(() => {
    ended = true;
  });
  const matches = (text: string | RegExp, value: string) =>
    typeof text === "string" ? value.includes(text) : text.test(value);
  return {
    child,
    chunks,
    stdout: () => joined("stdout"),
    stderr: () => joined("stderr"),
    exited,
    waitFor(text, stream) {
      return new Promise((done, fail) => {
        const check = () => {
          if (matches(text, joined(stream))) {
            waiters.delete(check);
            // The chunk that completed the match: the earliest prefix of chunks that contains it.
            let seen = "";
            for (const chunk of chunks) {
              if (stream !== undefined && chunk.stream !== stream) continue;
              seen += chunk.text;
              if (matches(text, seen)) return done(chunk);
            }
          } else if (ended || child.exitCode !== null) {
            waiters.delete(check);
            fail(new Error(`gadgets ${args.join(" ")} ended without printing ${text}:\n${joined()}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Runs a command to its end. */
export async function runCli(
  args: string[],
  user: CliEnvironment,
  options: { stdin?: string } = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const run = startCli(args, user, options);
  const { code } = await run.exited;
  return { code, stdout: run.stdout(), stderr: run.stderr() };
}
