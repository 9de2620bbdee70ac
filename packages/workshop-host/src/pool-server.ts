/**
 * Serves the runner pool to the Workshop Worker over Cap'n Web on a loopback WebSocket. Only the
 * Worker may use it: it must present the secret it was started with, and browsers (which always send
 * an Origin) are refused outright.
 */

import { timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";
import type { CapabilityHandler, ExecuteJob, ExecuteReply, IsolateEventSink } from "@gadgets/workshop-backend/executor";
import type { RunnerPoolApi } from "@gadgets/workshop-backend/runner-api";
import { newBatchedRpcSession, type MessageSocket } from "@gadgets/workshop-backend/batched-websocket";
import { RpcTarget } from "capnweb";
import { WebSocketServer } from "ws";
import type { RunnerPool } from "./runner-pool.ts";

/** Jobs carry a gadget (≤ 1 MiB of files, plus the harness) and a payload (≤ 1 MiB). */
const MAX_POOL_MESSAGE_BYTES = 8 * 1024 * 1024;

class PoolTarget extends RpcTarget implements RunnerPoolApi {
  readonly #pool: RunnerPool;
  constructor(pool: RunnerPool) {
    super();
    this.#pool = pool;
  }
  execute(job: ExecuteJob, sink: IsolateEventSink, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    return this.#pool.execute(job, sink, capabilities);
  }
  async cancel(runId: string, reason: "timeout" | "cancelled"): Promise<boolean> {
    return this.#pool.cancel(runId, reason === "timeout" ? "timeout" : "cancelled");
  }
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function servePool(pool: RunnerPool, secret: string): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({
    host: "127.0.0.1",
    port: 0,
    path: "/pool",
    maxPayload: MAX_POOL_MESSAGE_BYTES,
    verifyClient: ({ req }: { req: IncomingMessage }) =>
      req.headers.origin === undefined && sameSecret(req.headers.authorization ?? "", `Bearer ${secret}`),
  });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  server.on("connection", (socket) => {
    newBatchedRpcSession(socket as unknown as MessageSocket, new PoolTarget(pool), {
      limits: { maxMessageSize: MAX_POOL_MESSAGE_BYTES },
    });
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/pool`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
