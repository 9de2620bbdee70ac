/**
 * The Workers compatibility date of everything the Workshop runs: its Worker, the local runners and
 * every gadget isolate. One date, so a gadget behaves the same in the IDE, in the pool and on Cloudflare;
 * wrangler.toml repeats it (a test checks they agree). Cap'n Web stubs across Workers RPC hops need
 * 2026-01-20 or later.
 */
export const COMPATIBILITY_DATE = "2026-11-01";
