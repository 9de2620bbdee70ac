/** Starts the floor (floor-worker.ts) in a workerd process of its own, as the Workshop's runners are started. */

import { fileURLToPath } from "node:url";
import {
  bundleWorker,
  COMPATIBILITY_DATE,
  capnpText,
  startWorkerd,
  WORKER_COMPATIBILITY_FLAGS,
} from "@gadgets/workshop-host";

export interface Floor {
  readonly url: string;
  readonly pid: number;
  /** Stops the process; resolves once it has exited (and its temporary folder is gone). */
  stop(): Promise<void>;
}

/** With `relayTo` (another floor's url), a floor that hands every run to that one: see floor-worker.ts. */
export async function startFloor(options: { relayTo?: string } = {}): Promise<Floor> {
  const bundle = await bundleWorker(fileURLToPath(new URL("./floor-worker.ts", import.meta.url)));
  // Nowhere to reach, unless it relays to the other floor on this machine.
  const allow = options.relayTo ? '["local"]' : "[]";
  const relay = options.relayTo ? `\n    (name = "RELAY_URL", text = ${capnpText(options.relayTo)}),` : "";
  const config = `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [(name = "floor", worker = .floor), (name = "outbound", network = (allow = ${allow}))],
  sockets = [(name = "http", address = "127.0.0.1:0", http = (), service = "floor")],
);

const floor :Workerd.Worker = (
  modules = [(name = "floor.js", esModule = embed "floor.js")],
  compatibilityDate = ${capnpText(COMPATIBILITY_DATE)},
  # The Workshop Worker's own flags: its WebSockets, like the Workshop's, are not compressed.
  compatibilityFlags = [${WORKER_COMPATIBILITY_FLAGS.map(capnpText).join(", ")}],
  bindings = [
    (name = "LOADER", workerLoader = (id = "floor")),
    (name = "COMPATIBILITY_DATE", text = ${capnpText(COMPATIBILITY_DATE)}),${relay}
  ],
  globalOutbound = "outbound",
);
`;
  const process = await startWorkerd({ config, files: { "floor.js": bundle }, sockets: ["http"] });
  return {
    url: `ws://127.0.0.1:${process.ports.http}/`,
    pid: process.pid,
    async stop() {
      process.kill();
      await process.exited;
    },
  };
}
