/**
 * The Workers compatibility date of everything the Workshop runs: its Worker, the local runners and
 * every gadget isolate. One date, so a gadget behaves the same in the IDE, in the pool and on Cloudflare;
 * wrangler.toml repeats it (a test checks they agree). Cap'n Web stubs across Workers RPC hops need
 * 2026-01-20 or later.
 */
export const COMPATIBILITY_DATE = "2026-11-01";

/**
 * The Workshop Worker's compatibility flags (wrangler.toml repeats them). Its WebSockets are not
 * compressed: every client (a browser offers permessage-deflate by default) would otherwise cost the
 * Worker a deflate and an inflate per message — measured on loopback, half its calls per second — for
 * RPC messages that are mostly a few hundred bytes.
 */
export const WORKER_COMPATIBILITY_FLAGS = ["no_web_socket_compression"] as const;

/** Every gadget isolate's flags: the harness keeps each run's state in an AsyncLocalStorage. */
export const ISOLATE_COMPATIBILITY_FLAGS = ["nodejs_als"] as const;
