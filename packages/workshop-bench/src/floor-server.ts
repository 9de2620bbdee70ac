/** Starts the floor (floor-worker.ts) in a workerd process of its own, as the Workshop's runners are started. */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  bundleWorker,
  COMPATIBILITY_DATE,
  capnpText,
  startWorkerd,
  WORKER_COMPATIBILITY_FLAGS,
} from "@gadgets/workshop-host";
import type { Duty } from "./floor-duties.ts";

export interface Floor {
  readonly url: string;
  readonly pid: number;
  /** Stops the process; resolves once it has exited (and its temporary folder is gone). */
  stop(): Promise<void>;
}

/**
 * With `relayTo` (another floor's url), a floor that hands every run to that one; with `duties`, one
 * whose runs also do a workspace's duties, its Durable Object stored on disk as the Workshop's are; with
 * `workshopIsolate`, one whose isolates are made as the Workshop makes them: see floor-worker.ts.
 */
export async function startFloor(
  options: { relayTo?: string; duties?: readonly Duty[]; workshopIsolate?: boolean } = {},
): Promise<Floor> {
  const bundle = await bundleWorker(fileURLToPath(new URL("./floor-worker.ts", import.meta.url)));
  // Nowhere to reach, unless it relays to the other floor on this machine.
  const allow = options.relayTo ? '["local"]' : "[]";
  const relay = options.relayTo ? `\n    (name = "RELAY_URL", text = ${capnpText(options.relayTo)}),` : "";
  const storage = options.duties ? mkdtempSync(join(tmpdir(), "workshop-bench-floor-")) : undefined;
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "floor", worker = .floor),
    (name = "outbound", network = (allow = ${allow})),${storage ? `\n    (name = "storage", disk = (path = ${capnpText(storage)}, writable = true)),` : ""}
  ],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "floor")],
);

const floor :Workerd.Worker = (
  modules = [(name = "floor.js", esModule = embed "floor.js")],
  compatibilityDate = ${capnpText(COMPATIBILITY_DATE)},
  # The Workshop Worker's own flags: its WebSockets, like the Workshop's, are not compressed.
  compatibilityFlags = [${WORKER_COMPATIBILITY_FLAGS.map(capnpText).join(", ")}],
  bindings = [
    (name = "LOADER", workerLoader = (id = "floor")),
    (name = "COMPATIBILITY_DATE", text = ${capnpText(COMPATIBILITY_DATE)}),${relay}${storage ? '\n    (name = "STORE", durableObjectNamespace = "FloorStore"),' : ""}${options.duties ? `\n    (name = "DUTIES", text = ${capnpText(options.duties.join(","))}),` : ""}${options.workshopIsolate ? '\n    (name = "WORKSHOP_ISOLATE", text = "1"),' : ""}
  ],${
    storage
      ? `
  durableObjectNamespaces = [(className = "FloorStore", uniqueKey = "floor-FloorStore", enableSql = true)],
  durableObjectStorage = (localDisk = "storage"),`
      : ""
  }
  globalOutbound = "outbound",
);
`;
  const process = await startWorkerd({ config, files: { "floor.js": bundle }, sockets: ["http"] }).catch(
    (error: unknown) => {
      if (storage) rmSync(storage, { recursive: true, force: true });
      throw error;
    },
  );
  return {
    url: `ws://127.0.0.1:${process.ports.http}/`,
    pid: process.pid,
    async stop() {
      process.kill();
      await process.exited;
      if (storage) rmSync(storage, { recursive: true, force: true });
    },
  };
}
