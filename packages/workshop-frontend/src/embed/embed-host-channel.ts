/**
 * The embed's side of the host API handshake: tell the parent we are ready (repeatedly for a while,
 * since the host may start listening later, and whenever it asks), accept MessagePorts from the parent
 * window only — and, when the URL names a host origin, only from that origin — and serve the API on
 * each. Everything else is ignored.
 */

import { newMessagePortRpcSession } from "capnweb";
import { EMBED_CONNECT, EMBED_HELLO, EMBED_READY } from "@gadgets/workshop-shared/embed";

const READY_INTERVAL_MS = 500;
const READY_FOR_MS = 60_000;
/** Connections a host page may open (it may connect again: a retry, a component mounted twice). */
const MAX_HOST_CONNECTIONS = 8;

export function serveHostApi(api: object, allowedHost: string | undefined): () => void {
  if (window.parent === window) return () => {};
  const started = Date.now();
  let connections = 0;
  // The embed's own readiness is no secret; the port comes back only from the parent.
  const ready = (to: string) => window.parent.postMessage({ type: EMBED_READY }, to);
  const announce = () => {
    if (connections > 0 || Date.now() - started > READY_FOR_MS) clearInterval(timer);
    else ready(allowedHost ?? "*");
  };
  const timer = setInterval(announce, READY_INTERVAL_MS);
  announce();
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    if (allowedHost !== undefined && event.origin !== allowedHost) return;
    const type = (event.data as { type?: unknown } | null)?.type;
    if (type === EMBED_HELLO) {
      // A sandboxed parent's origin is opaque ("null"), which no message can be addressed to.
      if (connections < MAX_HOST_CONNECTIONS) ready(event.origin === "null" ? "*" : event.origin);
      return;
    }
    if (type !== EMBED_CONNECT) return;
    const port = event.ports[0];
    if (!port || connections >= MAX_HOST_CONNECTIONS) return;
    connections++;
    newMessagePortRpcSession(port, api);
  };
  window.addEventListener("message", onMessage);
  return () => {
    clearInterval(timer);
    window.removeEventListener("message", onMessage);
  };
}
