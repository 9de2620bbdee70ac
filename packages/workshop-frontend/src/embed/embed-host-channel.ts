/**
 * The embed's side of the host API handshake: tell the parent we are ready (repeatedly, since the host
 * may start listening later), accept one MessagePort from the parent window only — and, when the URL
 * names a host origin, only from that origin — and serve the API on it. Everything else is ignored.
 */

import { newMessagePortRpcSession } from "capnweb";
import { EMBED_CONNECT, EMBED_READY } from "@gadgets/workshop-shared/embed";

const READY_INTERVAL_MS = 500;
const READY_FOR_MS = 60_000;

export function serveHostApi(api: object, allowedHost: string | undefined): () => void {
  if (window.parent === window) return () => {};
  const started = Date.now();
  let connected = false;
  const announce = () => {
    if (connected || Date.now() - started > READY_FOR_MS) return;
    // The embed's own readiness is no secret; the port comes back only from the parent.
    window.parent.postMessage({ type: EMBED_READY }, allowedHost ?? "*");
  };
  const timer = setInterval(announce, READY_INTERVAL_MS);
  announce();
  const onMessage = (event: MessageEvent) => {
    if (event.source !== window.parent) return;
    if (allowedHost !== undefined && event.origin !== allowedHost) return;
    if ((event.data as { type?: unknown } | null)?.type !== EMBED_CONNECT) return;
    const port = event.ports[0];
    if (!port || connected) return;
    connected = true;
    clearInterval(timer);
    newMessagePortRpcSession(port, api);
  };
  window.addEventListener("message", onMessage);
  return () => {
    clearInterval(timer);
    window.removeEventListener("message", onMessage);
  };
}
