/**
 * Serves the runner pool to the Workshop Worker over Cap'n Web on a loopback WebSocket. Only the
 * Worker may use it: it must present the secret it was started with, and browsers (which always send
 * an Origin) are refused outright.
 */

import type { IncomingMessage } from "node:http";
import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { RpcTarget } from "capnweb";
import { WebSocketServer } from "ws";
import type { LeaseListener, Placement, RunFate, RunnerPoolApi } from "../protocol.ts";
import { sameSecret } from "../same-secret.ts";
import type { RunnerPool } from "./runner-pool.ts";

/** Messages carry a few ids and, back to the Worker, batches of events (each ≤ the event size cap). */
const MAX_POOL_MESSAGE_BYTES = 8 * 1024 * 1024;

class PoolTarget extends RpcTarget implements RunnerPoolApi {
  readonly #pool: RunnerPool;
  /** The Worker session's listener: its Cap'n Web main object, held for the session's life. */
  listener: LeaseListener | undefined;
  constructor(pool: RunnerPool) {
    super();
    this.#pool = pool;
  }
  async place(runId: string, workspaceId: string, nested: boolean): Promise<Placement> {
    if (typeof runId !== "string" || typeof workspaceId !== "string" || !this.listener)
      return {
        status: "error",
        kind: "invalid",
        error: { name: "TypeError", message: "A run needs its id and workspace.", stack: "" },
      };
    return this.#pool.place(runId, workspaceId, nested === true, this.listener);
  }
  async unplace(runId: string): Promise<void> {
    this.#pool.unplace(String(runId), this.listener);
  }
  async releaseLease(leaseId: string): Promise<void> {
    if (this.listener) this.#pool.releaseLeases(this.listener, String(leaseId));
  }
  fate(runId: string, leaseId: string): Promise<RunFate> {
    return this.#pool.fate(String(runId), String(leaseId));
  }
  async cancel(runId: string, reason: "timeout" | "cancelled", leaseId?: string): Promise<boolean> {
    return this.#pool.cancel(
      String(runId),
      reason === "timeout" ? "timeout" : "cancelled",
      typeof leaseId === "string" ? leaseId : undefined,
    );
  }
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
    const target = new PoolTarget(pool);
    target.listener = newBatchedRpcSession<LeaseListener>(socket as unknown as MessageSocket, target, {
      limits: { maxMessageSize: MAX_POOL_MESSAGE_BYTES },
    });
    socket.on("close", () => target.listener && pool.releaseLeases(target.listener));
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
