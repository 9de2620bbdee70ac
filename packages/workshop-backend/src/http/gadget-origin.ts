/**
 * Which origin a request came to. Gadget answers never share the IDE's origin (its localStorage holds
 * the workspace token): endpoints are served only on the gadget origin, and the gadget origin serves
 * nothing else. Locally that is a second socket of the same Worker: workerd sets `Workshop-Socket` on
 * each socket's requests, replacing any a client sent, so a client cannot make the IDE's port the
 * gadget origin (or the reverse) with a header. On Cloudflare it is a hostname of its own
 * (`GADGET_ORIGIN`), told apart by the Host the request was routed by.
 */

import type { Env } from "../env.ts";
import { SOCKET_HEADER } from "./endpoint-request.ts";

export type RequestOrigin = "ide" | "gadget";

/** The value workerd sets on the gadget socket's requests (the IDE's socket sets "ide"). */
export const GADGET_SOCKET = "endpoints";

type OriginEnv = Pick<Env, "GADGET_ORIGIN" | "LOCAL_SOCKETS">;

function gadgetUrl(env: OriginEnv): URL | undefined {
  if (!env.GADGET_ORIGIN) return undefined;
  try {
    return new URL(env.GADGET_ORIGIN);
  } catch {
    return undefined;
  }
}

export function requestOrigin(request: Request, env: OriginEnv): RequestOrigin {
  if (env.LOCAL_SOCKETS === "1") return request.headers.get(SOCKET_HEADER) === GADGET_SOCKET ? "gadget" : "ide";
  const gadget = gadgetUrl(env);
  return gadget && new URL(request.url).host.toLowerCase() === gadget.host.toLowerCase() ? "gadget" : "ide";
}

/** An endpoint's full URL on the gadget origin; undefined when this Workshop has no gadget origin. */
export function endpointUrl(env: OriginEnv, endpoint: string): string | undefined {
  const gadget = gadgetUrl(env);
  return gadget && `${gadget.origin}/h/${endpoint}`;
}
