/**
 * Processes the bench starts and reads from the OS: a Node script in a process of its own, and every
 * process's CPU time and resident memory from /proc, so each figure is charged to the process that
 * spent it.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

export interface Child {
  process: ChildProcess;
  /** The first line matching `ready`, once printed. */
  line: string;
  stop(): Promise<void>;
}

/** Starts `node <script> ...args` and waits for a line matching `ready`. */
export async function startNode(script: string, args: string[], ready: RegExp): Promise<Child> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  const line = await new Promise<string>((resolve, reject) => {
    const onData = (data: Buffer) => {
      output += data.toString();
      const match = output.split("\n").find((entry) => ready.test(entry));
      if (match) resolve(match);
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (data: Buffer) => {
      output += data.toString();
    });
    child.once("exit", (code) => reject(new Error(`${script} exited (${code}) before it was ready:\n${output}`)));
  });
  child.stdout?.resume();
  child.stderr?.resume();
  return {
    process: child,
    line,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
        child.once("exit", () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill("SIGTERM");
      }),
  };
}

const TICKS_PER_SECOND = 100;

/** CPU time (user + system) of a process in ms, or 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

export function rssBytes(pid: number): number {
  try {
    const match = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
    return match ? Number(match[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** Every process descended from `root`. */
export function descendants(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parents.set(parent, [...(parents.get(parent) ?? []), pid]);
    } catch {
      // gone meanwhile
    }
  }
  const found: number[] = [];
  const visit = (pid: number) => {
    for (const child of parents.get(pid) ?? []) {
      found.push(child);
      visit(child);
    }
  };
  visit(root);
  return found;
}

/** Whether a workerd process serves the Workshop's Worker (its config has the main Worker), not a runner. */
export function isMainWorkerd(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cwd/config.capnp`, "utf8").includes("mainWorker");
  } catch {
    return false;
  }
}

export function isWorkerd(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8")
      .split("\0")
      .some((arg) => arg.endsWith("workerd"));
  } catch {
    return false;
  }
}
