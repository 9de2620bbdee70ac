/**
 * Serves the runner pool to the Workshop Worker over Cap'n Web on a loopback WebSocket. Only the
 * Worker may use it: it must present the secret it was started with, and browsers (which always send
 * an Origin) are refused outright.
 */

import type { IncomingMessage } from "node:http";
import type { CapabilityHandler, ExecuteJob, ExecuteReply, IsolateEventSink } from "@gadgets/workshop-backend/executor";
import type { DirectFate, Lease, LeaseListener, RunnerPoolApi } from "@gadgets/workshop-backend/runner-api";
import { newBatchedRpcSession, type MessageSocket } from "@gadgets/workshop-shared/batched-websocket";
import { sameSecret } from "@gadgets/workshop-backend/same-secret";
import { RpcTarget, type RpcStub } from "capnweb";
import { WebSocketServer } from "ws";
import { DIRECT_RUN_GRACE_MS } from "./lease-book.ts";
import type { RunnerPool } from "./runner-pool.ts";

/** Jobs carry a gadget (≤ 1 MiB of files, plus the harness) and a payload (≤ 1 MiB). */
const MAX_POOL_MESSAGE_BYTES = 8 * 1024 * 1024;

/** Leases one Worker session may hold: one per workspace it runs for, and workspaces per session are capped upstream. */
const MAX_LEASES_PER_SESSION = 256;

class PoolTarget extends RpcTarget implements RunnerPoolApi {
  readonly #pool: RunnerPool;
  /** This session's leases, and how to let go of each one's listener. */
  readonly #held = new Map<string, () => void>();
  constructor(pool: RunnerPool) {
    super();
    this.#pool = pool;
  }
  /** This session's leases, released with it. */
  get leases(): string[] {
    return [...this.#held.keys()];
  }
  async lease(workspaceId: string, listener: LeaseListener): Promise<Lease | null> {
    if (typeof workspaceId !== "string" || this.#held.size >= MAX_LEASES_PER_SESSION) return null;
    // A stub received as an argument lasts only for the call: the lease keeps its own, until runs
    // started on it before it ended have surely ended (their deadlines are at most the longest run).
    const kept = (listener as RpcStub<LeaseListener>).dup();
    const letGo = (leaseId: string) => {
      if (!this.#held.delete(leaseId)) return;
      const done = setTimeout(() => kept[Symbol.dispose](), DIRECT_RUN_GRACE_MS);
      done.unref();
    };
    const held: LeaseListener = {
      events: (runId, batch) => kept.events(runId, batch),
      dropped: (runId, total) => kept.dropped(runId, total),
      finished: (runId) => kept.finished(runId),
      ended: (runId, result) => kept.ended(runId, result),
      revoked(leaseId) {
        letGo(leaseId);
        return kept.revoked(leaseId);
      },
    };
    const lease = await this.#pool.lease(workspaceId, held);
    if (lease) this.#held.set(lease.leaseId, () => letGo(lease.leaseId));
    else kept[Symbol.dispose]();
    return lease;
  }
  async releaseLease(leaseId: string): Promise<void> {
    const letGo = this.#held.get(String(leaseId));
    if (!letGo) return;
    this.#pool.releaseLeases([String(leaseId)]);
    letGo();
  }
  fate(runId: string, leaseId: string): Promise<DirectFate> {
    return this.#pool.fate(String(runId), String(leaseId));
  }
  execute(job: ExecuteJob, sink: IsolateEventSink, capabilities: CapabilityHandler | null): Promise<ExecuteReply> {
    return this.#pool.execute(job, sink, capabilities);
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
    newBatchedRpcSession(socket as unknown as MessageSocket, target, {
      limits: { maxMessageSize: MAX_POOL_MESSAGE_BYTES },
    });
    socket.on("close", () => pool.releaseLeases(target.leases));
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
