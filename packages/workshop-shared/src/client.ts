/**
 * `createRpcClient`: the one way browsers and Node backends talk to the Workshop. One Cap'n Web
 * WebSocket session; everything returned is a stub that can be used pipelined and disposed.
 *
 * @example
 * ```ts
 * using client = createRpcClient();            // WORKSHOP_URL / WORKSHOP_TOKEN, or the local default
 * const agent = client.getAgent(agentId);       // no await: pipelined
 * const result = await agent.run({ input: "hi" });
 * ```
 */

import type { RpcStub } from "capnweb";
import type { Agent, Session, WorkshopApi, WorkspaceCredentials } from "./api.ts";
import { JOINED_FRAMES_PARAM, type MessageSocket, newBatchedRpcSession } from "./batched-websocket.ts";
import { openNodeWebSocket } from "./node-websocket.ts";

/** Where `pnpm start` serves by default. */
export const DEFAULT_WORKSHOP_URL = "http://127.0.0.1:8787";

export interface RpcClientOptions {
  /** The Workshop's origin (`http://127.0.0.1:8787`) or its `/api` WebSocket URL. */
  url?: string;
  /** The workspace token; without it only `createWorkspace` and `ping` work. */
  token?: string;
  /** An already-created WebSocket to run the session on (for custom transports and tests). */
  webSocket?: WebSocket;
}

export interface WorkshopClient extends Disposable {
  /** The root stub of the session. */
  readonly api: RpcStub<WorkshopApi>;
  /**
   * The workspace session for the client's token (pipelined). Every call returns a stub of its own:
   * disposing it (`using session = client.getSession()`) releases that stub only, not the client.
   */
  getSession(): RpcStub<Session>;
  /** A published agent of the client's workspace (pipelined: no await needed before `.run`). */
  getAgent(agentRef: string): RpcStub<Agent>;
  createWorkspace(): Promise<WorkspaceCredentials>;
}

function environment(name: string): string | undefined {
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  const value = env?.[name];
  return value === "" ? undefined : value;
}

function defaultOrigin(): string {
  const location = (globalThis as { location?: { origin?: string } }).location;
  return location?.origin && location.origin !== "null" ? location.origin : DEFAULT_WORKSHOP_URL;
}

/** Turns `http(s)://host[/base]` into the session's `ws(s)://host[/base]/api` URL. */
export function apiWebSocketUrl(base: string): string {
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new TypeError(
      `Invalid Workshop URL ${JSON.stringify(base)}: expected something like ${DEFAULT_WORKSHOP_URL}.`,
    );
  }
  if (url.protocol === "http:") url.protocol = "ws:";
  else if (url.protocol === "https:") url.protocol = "wss:";
  else if (url.protocol !== "ws:" && url.protocol !== "wss:") {
    throw new TypeError(`Invalid Workshop URL ${JSON.stringify(base)}: use http(s):// or ws(s)://.`);
  }
  if (!url.pathname.endsWith("/api")) url.pathname = `${url.pathname.replace(/\/$/, "")}/api`;
  url.search = "";
  url.hash = "";
  return url.toString();
}

/**
 * Opens a session to the Workshop. URL and token come from options, else WORKSHOP_URL / WORKSHOP_TOKEN.
 * In Node the socket does not keep the process alive while no call is in flight, so a script that
 * forgets to dispose its client still exits when its work is done.
 */
export function createRpcClient(options: RpcClientOptions = {}): WorkshopClient {
  const token = options.token ?? environment("WORKSHOP_TOKEN");
  // Joined frames both ways: a call's push and pull, and its answer, each cross as one frame.
  const url = `${apiWebSocketUrl(options.url ?? environment("WORKSHOP_URL") ?? defaultOrigin())}?${JOINED_FRAMES_PARAM}=1`;
  const socket = options.webSocket ?? openNodeWebSocket(url) ?? new WebSocket(url);
  const api = newBatchedRpcSession<WorkshopApi>(socket as unknown as MessageSocket);
  // One session on the server per client; callers get duplicates of it, each released on its own.
  let session: RpcStub<Session> | undefined;

  function sharedSession(): RpcStub<Session> {
    if (token === undefined) {
      throw new Error(
        "No workspace token: pass createRpcClient({ token }) or set WORKSHOP_TOKEN. Create a workspace with client.createWorkspace().",
      );
    }
    session ??= api.getSession(token);
    return session;
  }

  return {
    api,
    getSession: () => sharedSession().dup(),
    getAgent: (agentRef) => sharedSession().getAgent(agentRef),
    createWorkspace: () => api.createWorkspace(),
    [Symbol.dispose]() {
      session?.[Symbol.dispose]();
      api[Symbol.dispose]();
    },
  };
}
