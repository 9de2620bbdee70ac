/**
 * Starts the Workshop on this machine: the Worker (Hono, Durable Objects, Worker Loader) in local
 * workerd through `wrangler dev`, with its data on disk. Used by `pnpm start` and by the end-to-end
 * tests, so both run exactly the same thing.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { freePort } from "./free-port.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

export interface WorkshopServerOptions {
  /** Port on 127.0.0.1; a free one when left out. */
  port?: number;
  /** Where workspaces are stored (Durable Object SQLite files). */
  dataDir: string;
  /** Extra Worker variables. */
  vars?: Record<string, string>;
  /** Pass the server's own output through (the CLI does; tests collect it). */
  echo?: boolean;
}

export interface WorkshopServer {
  url: string;
  /** Everything the server printed, for test failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const STARTUP_TIMEOUT_MS = 60_000;

function wranglerBin(): string {
  const require = createRequire(join(REPO_ROOT, "package.json"));
  return join(dirname(require.resolve("wrangler/package.json")), "bin", "wrangler.js");
}

async function waitForHealth(url: string, deadline: number, child: ChildProcess): Promise<void> {
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The Workshop server exited with code ${child.exitCode} while starting.`);
    try {
      const response = await fetch(`${url}/health`);
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error(`The Workshop server did not answer on ${url}/health within ${STARTUP_TIMEOUT_MS} ms.`);
}

export async function startWorkshopServer(options: WorkshopServerOptions): Promise<WorkshopServer> {
  const port = options.port ?? (await freePort());
  mkdirSync(options.dataDir, { recursive: true });
  const args = [
    wranglerBin(),
    "dev",
    "--config", join(REPO_ROOT, "wrangler.toml"),
    "--ip", "127.0.0.1",
    "--port", String(port),
    "--persist-to", options.dataDir,
    "--show-interactive-dev-session=false",
    "--live-reload=false",
    "--inspector-port", String(await freePort()),
  ];
  for (const [key, value] of Object.entries(options.vars ?? {})) args.push("--var", `${key}:${value}`);
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_SEND_METRICS: "false", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  let output = "";
  const collect = (chunk: Buffer) => {
    const text = chunk.toString();
    output = (output + text).slice(-200_000);
    if (options.echo) process.stdout.write(text);
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const url = `http://127.0.0.1:${port}`;

  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((done) => child.once("exit", () => done()));
    try {
      // The whole group: wrangler starts workerd as its own child.
      process.kill(-child.pid, "SIGTERM");
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // already gone
      }
    }, 5000);
    await exited;
    clearTimeout(timer);
  };

  try {
    await waitForHealth(url, Date.now() + STARTUP_TIMEOUT_MS, child);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output}`);
  }
  return { url, output: () => output, stop };
}
