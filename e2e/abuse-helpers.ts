/** Helpers for the abuse tests: raw HTTP with chosen headers and connections, and data-folder snapshots. */

import { readdirSync, statSync } from "node:fs";
import { type Agent, type IncomingMessage, request } from "node:http";
import { join } from "node:path";
import { createRpcClient, type GadgetFile, type WorkshopClient } from "@gadgets/workshop-shared";

export async function newWorkspace(url: string): Promise<WorkshopClient & { token: string }> {
  using boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  return Object.assign(createRpcClient({ url, token }), { token });
}

export const gadgetFiles = (name: string, source: string, grants: Record<string, unknown> = {}): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts", grants }) },
  { path: "index.ts", content: source },
];

/** A response's status, headers (lower-case names) and body as text, once it has ended. */
export interface HttpAnswer {
  status: number;
  headers: IncomingMessage["headers"];
  body: string;
}

function readAnswer(res: IncomingMessage): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    let body = "";
    res.setEncoding("utf8");
    res.on("data", (chunk: string) => {
      body += chunk;
    });
    res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    res.on("error", reject);
  });
}

/**
 * A GET with the headers given (Host included, which fetch does not allow), over `agent`'s connections:
 * a keep-alive agent with one socket is one client to the Workshop; `false` opens a new connection.
 */
export function httpGet(
  url: string,
  options: { headers?: Record<string, string>; agent?: Agent | false; method?: string } = {},
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers, agent: options.agent },
      (res) => readAnswer(res).then(resolve, reject),
    );
    req.on("error", reject);
    req.end();
  });
}

/**
 * A POST that declares a body of `declared` bytes, sends the first `sent` and then nothing more, as a
 * trickling sender does: answers the response the Workshop gave before the body arrived, then hangs up.
 */
export function httpTrickle(
  url: string,
  options: { headers?: Record<string, string>; sent: string; declared: number },
): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: "POST", headers: { ...options.headers, "content-length": String(options.declared) }, agent: false },
      (res) =>
        readAnswer(res)
          .then(resolve, reject)
          .finally(() => req.destroy()),
    );
    req.on("error", reject);
    req.write(options.sent);
  });
}

/** Every file under a folder with its size: what a test compares to see whether anything was written. */
export function fileSizes(dir: string): Map<string, number> {
  const sizes = new Map<string, number>();
  for (const name of readdirSync(dir, { recursive: true, encoding: "utf8" })) {
    const stats = statSync(join(dir, name));
    if (stats.isFile()) sizes.set(name, stats.size);
  }
  return sizes;
}

/** Files that appeared or changed size between two snapshots. */
export function changedFiles(before: Map<string, number>, after: Map<string, number>): string[] {
  return [...after].filter(([name, size]) => before.get(name) !== size).map(([name, size]) => `${name} (${size})`);
}
