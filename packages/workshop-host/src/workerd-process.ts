/**
 * One workerd process started from a generated config. Its listening ports come back on a control
 * file descriptor (no port guessing, no races), and its life is tied to ours with
 * `setpriv --pdeathsig KILL` where available, so a killed host leaves no orphan serving requests.
 */

import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Readable } from "node:stream";
import { OutputTail } from "./output-tail.ts";
import { OWNER_FILE, removeStaleTempFolders, TEMP_PREFIX } from "./stale-temp.ts";

const require = createRequire(import.meta.url);

/** The workerd binary shipped in the `workerd` npm package. */
export function workerdBinary(): string {
  return (require("workerd") as { default: string }).default;
}

let setprivAvailable: boolean | undefined;
function hasSetpriv(): boolean {
  setprivAvailable ??=
    process.platform === "linux" && spawnSync("setpriv", ["--help"], { stdio: "ignore" }).status === 0;
  return setprivAvailable;
}

export interface WorkerdProcessOptions {
  /** The config's text; `embed "name"` paths resolve against `files`. */
  config: string;
  /** Files written beside the config (module sources). */
  files: Record<string, string>;
  /** Called with each line the process prints. */
  onOutput?: (line: string) => void;
  /**
   * Lines holding this text are data for `onOutput` (a runner's event lines), not output kept for error
   * messages: a gadget flooding its console then costs the host no copy per line.
   */
  dataMarker?: string;
  /** Socket names to wait for before `start` resolves. */
  sockets: string[];
}

export interface WorkerdProcess {
  readonly pid: number;
  /** Port of each named socket. */
  readonly ports: Record<string, number>;
  /** Resolves with the exit code (or signal name) when the process ends. */
  readonly exited: Promise<number | string>;
  /**
   * Resolves once the process has ended and everything it wrote to stdout and stderr has been read
   * (the child's `close`, which comes after `exit`): no line of it can arrive after this.
   */
  readonly closed: Promise<void>;
  readonly alive: boolean;
  kill(signal?: NodeJS.Signals): void;
}

const START_TIMEOUT_MS = 30_000;
/** Longest line read from a workerd process; event lines are far shorter (a console call is capped). */
export const MAX_LINE_CHARS = 4 * 1024 * 1024;

let staleRemoved = false;

export async function startWorkerd(options: WorkerdProcessOptions): Promise<WorkerdProcess> {
  if (!staleRemoved) {
    staleRemoved = true;
    removeStaleTempFolders();
  }
  // mkdtemp makes the folder owner-only; the files are owner-only too (the config holds secrets).
  const dir = mkdtempSync(join(tmpdir(), TEMP_PREFIX));
  writeFileSync(join(dir, OWNER_FILE), String(process.pid), { mode: 0o600 });
  for (const [name, content] of Object.entries(options.files)) writeFileSync(join(dir, name), content, { mode: 0o600 });
  writeFileSync(join(dir, "config.capnp"), options.config, { mode: 0o600 });

  const args = ["serve", "--experimental", join(dir, "config.capnp"), "--control-fd=3"];
  const [command, argv] = hasSetpriv()
    ? ["setpriv", ["--pdeathsig", "KILL", "--", workerdBinary(), ...args]]
    : [workerdBinary(), args];
  const child: ChildProcess = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe", "pipe"], cwd: dir });
  if (child.pid === undefined) throw new Error("workerd could not be started.");

  const output = new OutputTail(200);
  // Output may come from gadget code (a runner's isolate can keep the original console): lines are
  // decoded as UTF-8 across chunk boundaries, cut at MAX_LINE_CHARS, and never re-scanned. Node's
  // readline would buffer a line without bound, which a gadget could use to fill the host's memory.
  const lines = (stream: Readable | null) => {
    if (!stream) return;
    stream.setEncoding("utf8");
    let buffered = "";
    let skipping = false;
    stream.on("data", (chunk: string) => {
      let start = 0;
      for (let at = chunk.indexOf("\n"); at !== -1; at = chunk.indexOf("\n", start)) {
        const line = buffered + chunk.slice(start, at);
        buffered = "";
        start = at + 1;
        if (skipping) {
          skipping = false;
          continue;
        }
        if (options.dataMarker === undefined || !line.includes(options.dataMarker)) output.push(line);
        options.onOutput?.(line);
      }
      if (skipping) return;
      buffered += chunk.slice(start);
      if (buffered.length > MAX_LINE_CHARS) {
        output.push(`${buffered.slice(0, 200)}… (line longer than ${MAX_LINE_CHARS} characters dropped)`);
        buffered = "";
        skipping = true;
      }
    });
  };
  lines(child.stdout);
  lines(child.stderr);

  let alive = true;
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      alive = false;
      rmSync(dir, { recursive: true, force: true });
      resolve(code ?? signal ?? "unknown");
    });
  });

  const closed = new Promise<void>((resolve) => child.once("close", () => resolve()));

  const ports: Record<string, number> = {};
  const control = child.stdio[3] as Readable;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      // Not left running (its folder holds the config, secrets included): it goes, and its folder with it.
      child.kill("SIGKILL");
      reject(new Error(`workerd did not start listening within ${START_TIMEOUT_MS} ms.\n${output.text()}`));
    }, START_TIMEOUT_MS);
    let buffered = "";
    control.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split("\n");
      buffered = parts.pop() ?? "";
      for (const part of parts) {
        try {
          const event = JSON.parse(part) as { event?: string; socket?: string; port?: number };
          if (event.event === "listen" && event.socket && event.port) ports[event.socket] = event.port;
        } catch {
          // not a control message
        }
      }
      if (options.sockets.every((name) => ports[name] !== undefined)) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`workerd exited (${code}) while starting:\n${output.text()}`));
    });
  });

  return {
    pid: child.pid,
    ports,
    exited,
    closed,
    get alive() {
      return alive;
    },
    kill(signal: NodeJS.Signals = "SIGKILL") {
      if (alive) child.kill(signal);
    },
  };
}
