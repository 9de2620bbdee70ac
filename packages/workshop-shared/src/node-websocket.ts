/**
 * The client's WebSocket in Node. Node's built-in WebSocket holds the event loop open for as long as it
 * is connected, so a backend script that calls an agent and forgets `client[Symbol.dispose]()` would
 * never exit. Here the socket holds the process open only while a call is in flight: an outgoing
 * `pull` waits for its `resolve`/`reject`, and when none is waiting the socket is unref'd.
 *
 * Browsers (and any runtime without `process.getBuiltinModule`) get `undefined` and use the global
 * WebSocket; nothing Node-only is imported statically, so bundlers leave this module light.
 */

/** The part of the `ws` package's socket this module uses. */
export interface NodeWebSocket {
  send(message: string): void;
  addEventListener(type: "open" | "message" | "close", listener: (event: { data?: unknown }) => void): void;
  readonly _socket?: { ref(): void; unref(): void } | null;
}

export type NodeWebSocketClass = new (url: string, options?: { perMessageDeflate?: boolean }) => NodeWebSocket;

interface NodeProcess {
  versions?: { node?: string };
  getBuiltinModule?: (name: string) => unknown;
}

/** Set by the installed package's Node entry (`node.ts`), whose bundle carries `ws` inside it. */
let providedWebSocketClass: NodeWebSocketClass | undefined;

/**
 * Hands this module the `ws` class to use instead of loading `ws` itself: a bundle has no `ws` in any
 * node_modules for `require` to find, so it imports it statically and passes it here.
 */
export function provideNodeWebSocketClass(webSocketClass: NodeWebSocketClass): void {
  providedWebSocketClass = webSocketClass;
}

function loadWebSocketClass(): NodeWebSocketClass | undefined {
  const nodeProcess = (globalThis as { process?: NodeProcess }).process;
  if (!nodeProcess?.versions?.node) return undefined;
  if (providedWebSocketClass) return providedWebSocketClass;
  if (typeof nodeProcess.getBuiltinModule !== "function") return undefined;
  const moduleApi = nodeProcess.getBuiltinModule("node:module") as
    | { createRequire(from: string): (id: string) => unknown }
    | undefined;
  if (!moduleApi) return undefined;
  try {
    return moduleApi.createRequire(import.meta.url)("ws") as NodeWebSocketClass;
  } catch {
    return undefined;
  }
}

/** The id of a capnweb `["pull",N]` / `["resolve",N,…]` / `["reject",N,…]` message, or undefined. */
export function messageId(message: string, kind: "pull" | "resolve" | "reject"): number | undefined {
  const prefix = `["${kind}",`;
  if (!message.startsWith(prefix)) return undefined;
  let end = prefix.length;
  while (end < message.length && end < prefix.length + 20 && message[end] !== "," && message[end] !== "]") end++;
  const id = Number(message.slice(prefix.length, end));
  return Number.isInteger(id) ? id : undefined;
}

/**
 * Tracks the calls in flight from capnweb's messages and tells `hold(true|false)` when the count
 * leaves or reaches zero. Separate from the socket so it can be tested on plain strings.
 */
export function createInFlightTracker(hold: (busy: boolean) => void) {
  const waiting = new Set<number>();
  const update = () => hold(waiting.size > 0);
  return {
    sent(message: string): void {
      const id = messageId(message, "pull");
      if (id === undefined) return;
      waiting.add(id);
      if (waiting.size === 1) update();
    },
    received(message: string): void {
      const id = messageId(message, "resolve") ?? messageId(message, "reject");
      if (id === undefined || !waiting.delete(id)) return;
      if (waiting.size === 0) update();
    },
    closed(): void {
      waiting.clear();
      update();
    },
  };
}

/** A `ws` WebSocket that keeps Node alive only while calls are in flight; undefined outside Node. */
export function openNodeWebSocket(url: string): WebSocket | undefined {
  const WebSocketClass = loadWebSocketClass();
  if (!WebSocketClass) return undefined;
  // Uncompressed, like the Workshop's side of every session (see its WORKER_COMPATIBILITY_FLAGS).
  const socket = new WebSocketClass(url, { perMessageDeflate: false });
  let busy = false;
  const apply = () => {
    if (busy) socket._socket?.ref();
    else socket._socket?.unref();
  };
  const tracker = createInFlightTracker((next) => {
    busy = next;
    apply();
  });
  const send = socket.send.bind(socket);
  // Frames may hold several messages, joined by newlines (batched-websocket.ts).
  socket.send = (frame: string) => {
    for (const message of frame.split("\n")) tracker.sent(message);
    send(frame);
  };
  socket.addEventListener("open", apply);
  socket.addEventListener("message", (event) => {
    if (typeof event.data === "string") for (const message of event.data.split("\n")) tracker.received(message);
  });
  socket.addEventListener("close", () => tracker.closed());
  // `ws` implements the parts of the DOM WebSocket interface capnweb uses.
  return socket as unknown as WebSocket;
}
