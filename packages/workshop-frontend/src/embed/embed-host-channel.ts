/**
 * The embed's side of the host API handshake: tell the parent we are ready (repeatedly for a while,
 * since the host may start listening later, and whenever it asks), accept MessagePorts from the parent
 * window only — and, when the URL names a host origin, only from that origin — and serve the API on
 * each. Everything else is ignored. A parent on another origin than the named host is never written to
 * unasked: the browser would refuse each message and say so in that page's console.
 */

import { newMessagePortRpcSession } from "capnweb";
import { EMBED_CONNECT, EMBED_HELLO, EMBED_READY } from "@gadgets/workshop-shared/embed";

const READY_INTERVAL_MS = 500;
const READY_FOR_MS = 60_000;
/** Connections a host page may open (it may connect again: a retry, a component mounted twice). */
const MAX_HOST_CONNECTIONS = 8;

/**
 * The parent page's origin, when the browser tells: `location.ancestorOrigins` (Chromium, Safari), else
 * the referrer's (which a referrer policy may withhold). `undefined` when neither says.
 */
export function parentOrigin(
  ancestorOrigins: { readonly length: number; readonly [index: number]: string } | undefined,
  referrer: string,
): string | undefined {
  if (ancestorOrigins && ancestorOrigins.length > 0) return ancestorOrigins[0];
  if (!referrer) return undefined;
  try {
    return new URL(referrer).origin;
  } catch {
    return undefined;
  }
}

/** Whether announcing `ready` to `allowedHost` can reach the parent (always, for any host: `"*"`). */
export function mayAnnounce(allowedHost: string | undefined, parent: string | undefined): boolean {
  return allowedHost === undefined || parent === undefined || parent === allowedHost;
}

export function serveHostApi(api: object, allowedHost: string | undefined): () => void {
  if (window.parent === window) return () => {};
  // A hello is answered either way: it can only come from the allowed origin (checked below).
  const announcing = mayAnnounce(allowedHost, parentOrigin(location.ancestorOrigins, document.referrer));
  const started = Date.now();
  let connections = 0;
  // The embed's own readiness is no secret; the port comes back only from the parent.
  const ready = (to: string) => window.parent.postMessage({ type: EMBED_READY }, to);
  const announce = () => {
    if (!announcing || connections > 0 || Date.now() - started > READY_FOR_MS) clearInterval(timer);
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
