/**
 * The browser's one Cap'n Web session to the Workshop, with the workspace token kept in the browser
 * (no cookies). Creates a workspace on the first visit, notices a lost connection, and reconnects by
 * itself with backoff. Framework-free: React subscribes through `useSyncExternalStore`.
 * Reconnecting is written here rather than taken from a library: what it must do on reconnect (new
 * session, token recovery by error code, runs in flight marked interrupted) is this app's own.
 */

import type { RpcStub } from "capnweb";
import {
  createRpcClient,
  errorCode,
  type RpcClientOptions,
  type Session,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { Subscribable } from "../subscribable.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";

export type ConnectionState =
  | { status: "connecting"; attempt: number }
  | { status: "connected"; workspaceId: string }
  | { status: "lost"; reason: string; retryAt: number; attempt: number };

/** Where the token lives; `localStorage` in the page, a Map in tests. */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Where the workspace token is kept (see storage-keys.ts). */
export const TOKEN_KEY = STORAGE_KEYS.token;
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

type ClientFactory = (options: RpcClientOptions) => WorkshopClient;

export class WorkshopConnection extends Subscribable {
  #state: ConnectionState = { status: "connecting", attempt: 0 };
  readonly #brokenListeners = new Set<(reason: string) => void>();
  #client: WorkshopClient | undefined;
  #session: RpcStub<Session> | undefined;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #closed = false;
  #started = false;
  #generation = 0;

  constructor(
    private readonly storage: TokenStorage,
    private readonly options: { url?: string; createClient?: ClientFactory } = {},
  ) {
    super();
  }

  get state(): ConnectionState {
    return this.#state;
  }

  /** Called when a connected session breaks: runs in flight on it were interrupted. */
  onBroken(listener: (reason: string) => void): () => void {
    this.#brokenListeners.add(listener);
    return () => this.#brokenListeners.delete(listener);
  }

  /** Resolves once connected (or at once when already connected). */
  ready(): Promise<RpcStub<Session>> {
    if (this.#state.status === "connected" && this.#session) return Promise.resolve(this.#session);
    return new Promise((resolve) => {
      const off = this.subscribe(() => {
        if (this.#state.status === "connected" && this.#session) {
          off();
          resolve(this.#session);
        }
      });
    });
  }

  /**
   * Connects (once; later calls do nothing while connected or connecting). A closed connection may be
   * started again, as React's StrictMode does to every effect in development (start, close, start).
   */
  start(): void {
    if (this.#started) return;
    this.#started = true;
    this.#closed = false;
    void this.#connect(0);
  }

  close(): void {
    this.#started = false;
    this.#closed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#client?.[Symbol.dispose]();
  }

  #set(state: ConnectionState): void {
    this.#state = state;
    this.notify();
  }

  async #connect(attempt: number): Promise<void> {
    if (this.#closed) return;
    const generation = ++this.#generation;
    this.#set({ status: "connecting", attempt });
    const factory = this.options.createClient ?? createRpcClient;
    let client: WorkshopClient | undefined;
    try {
      let token = this.storage.getItem(TOKEN_KEY);
      if (!token) {
        const bootstrap = factory({ url: this.options.url });
        try {
          token = (await bootstrap.createWorkspace()).token;
        } finally {
          bootstrap[Symbol.dispose]();
        }
        this.storage.setItem(TOKEN_KEY, token);
      }
      client = factory({ url: this.options.url, token });
      const session = client.getSession();
      const { workspaceId } = await session.workspace();
      if (generation !== this.#generation || this.#closed) {
        client[Symbol.dispose]();
        return;
      }
      this.#client?.[Symbol.dispose]();
      this.#client = client;
      this.#session = session;
      client.api.onRpcBroken((error: unknown) => this.#broken(generation, error));
      this.#set({ status: "connected", workspaceId });
    } catch (error) {
      client?.[Symbol.dispose]();
      if (generation !== this.#generation) return;
      // The server no longer knows this token (its data was removed): start a new workspace.
      const code = errorCode(error);
      if (code === "UNKNOWN_TOKEN" || code === "INVALID_TOKEN") {
        this.storage.setItem(TOKEN_KEY, "");
        void this.#connect(attempt);
        return;
      }
      this.#retry(attempt, error);
    }
  }

  #broken(generation: number, error: unknown): void {
    if (generation !== this.#generation || this.#closed) return;
    const reason = error instanceof Error ? error.message : String(error);
    for (const listener of this.#brokenListeners) listener(reason);
    this.#session = undefined;
    this.#retry(0, error);
  }

  #retry(attempt: number, error: unknown): void {
    const delay = BACKOFF_MS[Math.min(attempt, BACKOFF_MS.length - 1)] ?? 8000;
    const reason = error instanceof Error ? error.message : String(error);
    this.#set({ status: "lost", reason, retryAt: Date.now() + delay, attempt: attempt + 1 });
    this.#timer = setTimeout(() => void this.#connect(attempt + 1), delay);
  }
}
