/**
 * Tells the Worker how much disk is free where its data lives, so it refuses new writes before the
 * disk fills (reads keep working). A loopback HTTP server answering one JSON object; it holds nothing
 * secret, and the Worker is its only client (through a service binding).
 */

import { statfsSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

export interface DiskStatus {
  freeBytes: number;
  minFreeBytes: number;
}

/** Free bytes for an unprivileged writer on the filesystem holding `path`. */
export function freeBytes(path: string): number {
  const stats = statfsSync(path);
  return stats.bavail * stats.bsize;
}

export async function serveDiskStatus(
  dataDir: string,
  minFreeBytes: number,
): Promise<{ port: number; close(): Promise<void> }> {
  const server = createServer((_request, response) => {
    let status: DiskStatus;
    try {
      status = { freeBytes: freeBytes(dataDir), minFreeBytes };
    } catch {
      // Unknown is not full: the guard stays open, and a failed write still fails cleanly.
      status = { freeBytes: Number.MAX_SAFE_INTEGER, minFreeBytes };
    }
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(status));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
