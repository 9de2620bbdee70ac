/**
 * A Cap'n Web transport that sends the messages of one moment as one WebSocket frame. Cap'n Web sends a
 * frame per message — a call is a push and a pull, its answer a resolve, then releases — and every frame
 * is a system call for the sender and a wake-up (a dispatch into JavaScript, in workerd) for the
 * receiver, which is most of what a short call costs on loopback.
 *
 * Messages are joined by newlines (JSON text never holds a raw newline). A frame of nothing but
 * releases waits to ride along with the next message (at most RELEASE_DELAY_MS): nobody waits for a
 * release. Order is kept. Received frames are always split, so a plain Cap'n Web peer can talk to this
 * end; what this end sends is joined only when `joinOutgoing` (the default) — the peer must split too.
 * Used on the runner pool's links and between the Workshop and its own clients (`/api?frames=1`).
 */

import { type RpcCompatible, RpcSession, type RpcSessionOptions, type RpcStub, type RpcTransport } from "capnweb";
import { type Admission, type HoldingsLimits, RpcHoldings } from "./rpc-holdings.ts";

/**
 * The part of a WebSocket (a browser's, workerd's, or the `ws` package's in Node) this transport uses.
 * It may still be connecting (`readyState` 0): frames wait for its `open` event.
 */
export interface MessageSocket {
  readonly readyState?: number;
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: "message", listener: (event: { data?: unknown }) => void): void;
  addEventListener(type: "open", listener: () => void): void;
  addEventListener(type: "close" | "error", listener: (event: { code?: number; reason?: string }) => void): void;
}

export interface BatchedTransportOptions {
  /** Join outgoing messages into frames (default); off for a peer that sends one message per frame. */
  joinOutgoing?: boolean;
  /**
   * Bounds on what the peer can make this end hold (see rpc-holdings.ts); past one, the session is
   * ended with a message that says which. Set on the end that serves untrusted peers.
   */
  holdings?: HoldingsLimits;
}

const CONNECTING = 0;

/** The query parameter by which a client of the Workshop's `/api` asks for joined frames (`=1`). */
export const JOINED_FRAMES_PARAM = "frames";

const SEPARATOR = "\n";
const RELEASE = '["release",';
/** How long releases alone wait for company. */
const RELEASE_DELAY_MS = 20;
/**
 * Messages join a frame until it holds this many characters; a longer message goes alone. Frames stay
 * under the links' frame limits (the pool's 8 MiB), however many large jobs start at once.
 */
const MAX_BATCH_CHARS = 256 * 1024;
/**
 * Microtask turns before the frame leaves: a call's push and the pull that awaiting it sends one
 * turn later (`await` on a thenable) travel together.
 */
const FLUSH_AFTER_TURNS = 3;

export class BatchedWebSocketTransport implements RpcTransport {
  readonly #socket: MessageSocket;
  #outgoing: string[] = [];
  #outgoingChars = 0;
  #onlyReleases = true;
  #flushQueued = false;
  #releaseTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #received: string[] = [];
  #receiver: { resolve(message: string): void; reject(error: unknown): void } | undefined;
  #error: unknown;
  /** Why this end stopped reading the peer (a limit passed); the socket still carries the abort. */
  #refusal: Error | undefined;
  #holdings: RpcHoldings | undefined;

  readonly #join: boolean;
  /** Frames waiting for the socket to open. */
  #beforeOpen: string[] | undefined;

  constructor(socket: MessageSocket, options: BatchedTransportOptions = {}) {
    this.#socket = socket;
    this.#join = options.joinOutgoing ?? true;
    if (socket.readyState === CONNECTING) {
      this.#beforeOpen = [];
      socket.addEventListener("open", () => {
        const frames = this.#beforeOpen ?? [];
        this.#beforeOpen = undefined;
        for (const frame of frames) this.#sendFrame(frame);
      });
    }
    socket.addEventListener("message", (event) => {
      if (this.#error !== undefined || this.#refusal !== undefined) return;
      if (typeof event.data !== "string") {
        this.#fail(new TypeError("Received a binary frame on a text RPC link."));
        return;
      }
      for (const message of event.data.split(SEPARATOR)) {
        if (this.#refusal !== undefined) return;
        if (this.#receiver) {
          const receiver = this.#receiver;
          this.#receiver = undefined;
          if (this.#admitted(message)) receiver.resolve(message);
          else receiver.reject(this.#refusal);
        } else {
          this.#received.push(message);
          if (this.#holdings && !this.#passes(this.#holdings.admitQueue(this.#received.length))) return;
        }
      }
    });
    socket.addEventListener("close", (event) =>
      this.#fail(new Error(`Peer closed WebSocket: ${event.code} ${event.reason}`)),
    );
    socket.addEventListener("error", () => this.#fail(new Error("WebSocket connection failed.")));
  }

  /** Counts what the session holds from here on (called once the session exists). */
  guard(holdings: RpcHoldings): void {
    this.#holdings = holdings;
  }

  send(message: string): void {
    this.#holdings?.sent(message);
    if (!this.#join) {
      this.#sendFrame(message);
      return;
    }
    if (this.#outgoingChars + message.length > MAX_BATCH_CHARS) this.#flush();
    this.#outgoing.push(message);
    this.#outgoingChars += message.length + 1;
    if (this.#onlyReleases && !message.startsWith(RELEASE)) this.#onlyReleases = false;
    if (!this.#onlyReleases) this.#queueFlush();
    else this.#releaseTimer ??= setTimeout(() => this.#releasesDue(), RELEASE_DELAY_MS);
  }

  receive(): Promise<string> {
    if (this.#refusal !== undefined) return Promise.reject(this.#refusal);
    const message = this.#received.shift();
    if (message !== undefined)
      return this.#admitted(message) ? Promise.resolve(message) : Promise.reject(this.#refusal);
    if (this.#error !== undefined) return Promise.reject(this.#error);
    return new Promise((resolve, reject) => {
      this.#receiver = { resolve, reject };
    });
  }

  abort(reason: unknown): void {
    // The last message is often Cap'n Web's "abort": it leaves before the socket closes.
    this.#flush();
    const text = reason instanceof Error ? reason.message : String(reason);
    try {
      // A close reason is at most 123 bytes.
      this.#socket.close(3000, text.slice(0, 40));
    } catch {
      // already closed
    }
    this.#error ??= reason;
  }

  #queueFlush(): void {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    let turns = FLUSH_AFTER_TURNS;
    const turn = () => {
      if (--turns > 0) queueMicrotask(turn);
      else {
        this.#flushQueued = false;
        this.#flush();
      }
    };
    queueMicrotask(turn);
  }

  #releasesDue(): void {
    this.#releaseTimer = undefined;
    // Anything else queued leaves on its own turn; releases that waited go now.
    if (this.#onlyReleases) this.#flush();
  }

  #flush(): void {
    if (this.#outgoing.length === 0) return;
    const frame = this.#outgoing.length === 1 ? (this.#outgoing[0] as string) : this.#outgoing.join(SEPARATOR);
    this.#outgoing = [];
    this.#outgoingChars = 0;
    this.#onlyReleases = true;
    this.#sendFrame(frame);
  }

  #sendFrame(frame: string): void {
    if (this.#error !== undefined) return;
    if (this.#beforeOpen) {
      this.#beforeOpen.push(frame);
      return;
    }
    try {
      this.#socket.send(frame);
    } catch (error) {
      this.#fail(error);
    }
  }

  /** Whether the session may read `message`; if not, this end stops reading the peer. */
  #admitted(message: string): boolean {
    return this.#holdings === undefined || this.#passes(this.#holdings.admit(message));
  }

  #passes(admission: Admission): boolean {
    if (admission.ok) return true;
    this.#refusal ??= new RangeError(admission.message);
    this.#received.length = 0;
    this.#receiver?.reject(this.#refusal);
    this.#receiver = undefined;
    return false;
  }

  #fail(error: unknown): void {
    if (this.#error !== undefined) return;
    this.#error = error;
    this.#receiver?.reject(error);
    this.#receiver = undefined;
  }
}

/** A Cap'n Web session over `socket` with batched frames (see BatchedTransportOptions for the other end). */
export function newBatchedRpcSession<T extends RpcCompatible<T>>(
  socket: MessageSocket,
  localMain?: unknown,
  options?: RpcSessionOptions & BatchedTransportOptions,
): RpcStub<T> {
  const { joinOutgoing, holdings, ...sessionOptions } = options ?? {};
  const transport = new BatchedWebSocketTransport(socket, joinOutgoing === undefined ? {} : { joinOutgoing });
  const session = new RpcSession<T>(transport, localMain, sessionOptions);
  if (holdings)
    transport.guard(
      new RpcHoldings(holdings, () => {
        const { imports, exports } = session.getStats();
        return imports + exports;
      }),
    );
  return session.getRemoteMain();
}
