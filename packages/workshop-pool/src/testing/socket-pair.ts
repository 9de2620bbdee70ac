/**
 * In-memory WebSockets for the executors' unit tests: a pair whose frames arrive on a later task, as
 * over a real socket, and a `fetch` that answers an upgrade with one end (as workerd's does), the other
 * end served by a test's own Cap'n Web target.
 */

import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";

type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;

export class FakeSocket implements MessageSocket {
  peer: FakeSocket | undefined;
  closed = false;
  readonly #listeners = new Map<string, Listener[]>();

  /** workerd's sockets must be accepted before use. */
  accept(): void {}
  send(message: string): void {
    if (this.closed) return;
    setTimeout(() => this.peer?.emit("message", { data: message }));
  }
  close(code = 1000, reason = ""): void {
    if (this.closed) return;
    this.closed = true;
    setTimeout(() => {
      this.emit("close", { code, reason });
      this.peer?.closeFromPeer(code, reason);
    });
  }
  closeFromPeer(code: number, reason: string): void {
    if (this.closed) return;
    this.closed = true;
    this.emit("close", { code, reason });
  }
  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: Parameters<Listener>[0]): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

export function socketPair(): [FakeSocket, FakeSocket] {
  const a = new FakeSocket();
  const b = new FakeSocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/**
 * A `fetch` whose every upgrade is served by a new session on `serve()`'s target; `sockets` holds the
 * served ends, newest last (close one to break that link).
 */
export function upgradingFetch(serve: () => unknown) {
  const sockets: FakeSocket[] = [];
  const fetch = async (): Promise<{ status: number; webSocket: FakeSocket }> => {
    const [client, server] = socketPair();
    sockets.push(server);
    newBatchedRpcSession(server, serve());
    return { status: 101, webSocket: client };
  };
  return { fetch, sockets };
}
