/**
 * The Node.js built-in modules a gadget isolate provides. At the Workshop's compatibility date workerd's
 * Node compatibility is on by default, and its own `node:module` `builtinModules` lists exactly these
 * (`package-loading.test.ts` in the host package checks this list against a real isolate), plus the
 * `node:`-only ones it serves. A package that imports one gets the runtime's module, untouched by the
 * build; one workerd lacks (`node:sea`, `node:quic`…) is named in the build's error instead.
 */

export const WORKERD_BUILTINS: ReadonlySet<string> = new Set([
  "_http_agent",
  "_http_client",
  "_http_common",
  "_http_incoming",
  "_http_outgoing",
  "_http_server",
  "_stream_duplex",
  "_stream_passthrough",
  "_stream_readable",
  "_stream_transform",
  "_stream_wrap",
  "_stream_writable",
  "_tls_common",
  "_tls_wrap",
  "assert",
  "assert/strict",
  "async_hooks",
  "buffer",
  "child_process",
  "cluster",
  "console",
  "constants",
  "crypto",
  "dgram",
  "diagnostics_channel",
  "dns",
  "dns/promises",
  "domain",
  "events",
  "fs",
  "fs/promises",
  "http",
  "http2",
  "https",
  "inspector",
  "inspector/promises",
  "module",
  "net",
  "os",
  "path",
  "path/posix",
  "path/win32",
  "perf_hooks",
  "process",
  "punycode",
  "querystring",
  "readline",
  "readline/promises",
  "repl",
  "stream",
  "stream/consumers",
  "stream/promises",
  "stream/web",
  "string_decoder",
  "sys",
  "timers",
  "timers/promises",
  "tls",
  "trace_events",
  "tty",
  "url",
  "util",
  "util/types",
  "v8",
  "vm",
  "wasi",
  "worker_threads",
  "zlib",
]);

/** Served only under their `node:` name, as in Node. */
const PREFIXED_ONLY: ReadonlySet<string> = new Set(["sqlite", "test"]);

/** Node's built-ins that are not in workerd: named in an error, never left for the runtime to refuse. */
const NODE_ONLY: ReadonlySet<string> = new Set(["sea", "quic", "test/reporters"]);

export type BuiltinLookup =
  | { kind: "builtin"; specifier: string }
  | { kind: "missing"; name: string }
  | { kind: "not-builtin" };

/**
 * Whether `specifier` names a built-in: `node:buffer` and bare `buffer` alike, answered as the
 * `node:` specifier the isolate loads. A bare name a package of the lock also has is the package's:
 * callers ask about bare names only once the lock has no such package.
 */
export function builtinModule(specifier: string): BuiltinLookup {
  const prefixed = specifier.startsWith("node:");
  const name = prefixed ? specifier.slice(5) : specifier;
  if (WORKERD_BUILTINS.has(name) || (prefixed && PREFIXED_ONLY.has(name)))
    return { kind: "builtin", specifier: `node:${name}` };
  if (prefixed || NODE_ONLY.has(name)) return { kind: "missing", name: `node:${name}` };
  return { kind: "not-builtin" };
}
