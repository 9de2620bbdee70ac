import type { RpcClientOptions, WorkshopClient } from "@gadgets/workshop-shared";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { TOKEN_KEY, WorkshopConnection } from "./workshop-connection.ts";

class MemoryStorage {
  readonly map = new Map<string, string>();
  getItem = (key: string) => this.map.get(key) ?? null;
  setItem = (key: string, value: string) => void this.map.set(key, value);
}

/** A client whose server can be made to fail or break, standing in for the network only. */
function fakeClients() {
  const created: RpcClientOptions[] = [];
  let failing = 0;
  let rejected: string | undefined;
  const counters = { disposed: 0 };
  let breakCallback: ((error: unknown) => void) | undefined;
  const factory = (options: RpcClientOptions) => {
    created.push(options);
    const client = {
      api: {
        onRpcBroken: (cb: (error: unknown) => void) => {
          breakCallback = cb;
        },
      },
      createWorkspace: async () => ({ workspaceId: "w1", token: "gw_new" }),
      getSession: () => ({
        workspace: async () => {
          // The server's code is what counts; its wording may change.
          if (options.token === rejected) throw Object.assign(new Error("(any wording)"), { code: "UNKNOWN_TOKEN" });
          if (failing > 0) {
            failing--;
            throw new Error("connect ECONNREFUSED");
          }
          return { workspaceId: "w1" };
        },
      }),
      [Symbol.dispose]() {
        counters.disposed++;
      },
    };
    return client as unknown as WorkshopClient;
  };
  const failNext = (n: number) => {
    failing = n;
  };
  return {
    factory,
    created,
    failNext,
    rejectToken: (token: string) => {
      rejected = token;
    },
    get disposed() {
      return counters.disposed;
    },
    breakNow: () => breakCallback?.(new Error("socket closed")),
  };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe("WorkshopConnection", () => {
  it("creates a workspace on the first visit and keeps its token", async () => {
    const storage = new MemoryStorage();
    const clients = fakeClients();
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    connection.start();
    await connection.ready();
    expect(storage.map.get(TOKEN_KEY)).toBe("gw_new");
    expect(connection.state).toEqual({ status: "connected", workspaceId: "w1" });
    expect(clients.created.at(-1)?.token).toBe("gw_new");
  });

  it("reuses a kept token", async () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_KEY, "gw_kept");
    const clients = fakeClients();
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    connection.start();
    await connection.ready();
    expect(clients.created.map((options) => options.token)).toEqual(["gw_kept"]);
  });

  it("starts a new workspace when the server no longer knows the kept token", async () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_KEY, "gw_forgotten");
    const clients = fakeClients();
    clients.rejectToken("gw_forgotten");
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    connection.start();
    await connection.ready();
    expect(storage.map.get(TOKEN_KEY)).toBe("gw_new");
    expect(clients.disposed).toBeGreaterThan(0);
  });

  it("shows a lost connection and reconnects by itself with backoff", async () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_KEY, "gw_kept");
    const clients = fakeClients();
    clients.failNext(2);
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.state).toMatchObject({ status: "lost", reason: "connect ECONNREFUSED" });
    await vi.advanceTimersByTimeAsync(2000);
    expect(connection.state.status).toBe("connected");
  });

  it("connects again when started after a close, as StrictMode does in development", async () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_KEY, "gw_kept");
    const clients = fakeClients();
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    connection.start();
    connection.close();
    connection.start();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.state).toEqual({ status: "connected", workspaceId: "w1" });
  });

  it("tells runs in flight that the connection broke, then reconnects", async () => {
    const storage = new MemoryStorage();
    storage.setItem(TOKEN_KEY, "gw_kept");
    const clients = fakeClients();
    const connection = new WorkshopConnection(storage, { createClient: clients.factory });
    const broken = vi.fn();
    connection.onBroken(broken);
    connection.start();
    await connection.ready();
    clients.breakNow();
    expect(broken).toHaveBeenCalledWith("socket closed");
    expect(connection.state.status).toBe("lost");
    await vi.advanceTimersByTimeAsync(1000);
    expect(connection.state.status).toBe("connected");
  });
});
