// Generated from src/isolate/harness/ by `pnpm --filter @gadgets/workshop-backend bundle-harness`: do not edit.
// A unit test (scripts/harness-text.test.ts) fails while it is stale.

/** `__workshop_console.js`: console-module.ts and what it imports. */
export const CONSOLE_MODULE_TEXT = `// ../workshop-shared/src/limits.ts
var MAX_PAYLOAD_BYTES = 1024 * 1024;
var MAX_RESULT_BYTES = 1024 * 1024;
var MAX_FILE_BYTES = 256 * 1024;
var MAX_CODE_MODE_BYTES = MAX_FILE_BYTES - 64;
var MAX_GADGET_BYTES = 1024 * 1024;
var MAX_NAME_LENGTH = 64;
var MAX_SCHEMA_BYTES = 64 * 1024;
var MAX_ID_LENGTH = 64;
var MAX_AGENT_REF_LENGTH = Math.max(MAX_ID_LENGTH, MAX_NAME_LENGTH) + 12;
var MAX_RUN_RECORDS_PER_WORKSPACE = 1e3;
var MAX_EVENTS_PER_RUN = 2e3;
var DROPPED_TALLY_EVERY = 100;
var MAX_EVENT_BYTES_PER_RUN = 2 * 1024 * 1024;
var CONSOLE_CAPS = {
  /** Arguments of one console call. */
  maxArgs: 32,
  /** Nesting depth of objects and arrays. */
  maxDepth: 6,
  /** Keys shown per object, entries per Map/Set, items per array. */
  maxKeys: 100,
  /** Characters kept per string. */
  maxStringLength: 1e4,
  /** Nodes encoded per console call. */
  maxNodes: 2e3,
  /** Characters of string content per console call, summed over its strings: six full strings. */
  maxCharsPerCall: 6e4
};
var MAX_CONSOLE_GROUP_DEPTH = 32;
var RUN_MEMORY_LIMIT_BYTES = 128 * 1024 * 1024;
var KV_MAX_VALUE_BYTES = 64 * 1024;
var KV_MAX_TOTAL_BYTES = 1024 * 1024;
var MAX_FETCH_RESPONSE_BYTES = 1024 * 1024;
var MAX_FETCH_REQUEST_BYTES = 1024 * 1024;
var MAX_TEST_RESULT_BYTES = 64 * 1024;
var MAX_TRACE_BYTES = 128 * 1024;
var WORKSPACE_QUOTA_BYTES = 64 * 1024 * 1024;
var MAX_RUN_RECORD_BYTES_PER_WORKSPACE = 16 * 1024 * 1024;
var MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE = MAX_RUN_RECORDS_PER_WORKSPACE / 2;
var MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE = MAX_RUN_RECORD_BYTES_PER_WORKSPACE / 2;
var MIN_FREE_DISK_BYTES = 512 * 1024 * 1024;
var MAX_CODE_MODE_TYPES_CHARS = 32 * 1024;
var MAX_CATALOG_TYPES_CHARS = 256 * 1024;
var MAX_MCP_BODY_BYTES = 2 * 1024 * 1024 + 64 * 1024;
var MAX_MCP_SUMMARY_CHARS = 8 * 1024;
var MAX_SECRET_BYTES = 8 * 1024;
var MAX_SCHEDULE_INTERVAL_MS = 366 * 24 * 60 * 60 * 1e3;
var MAX_ENDPOINT_BODY_BYTES = 512 * 1024;
var MAX_ENDPOINT_HEADER_VALUE_CHARS = 8 * 1024;
var MAX_PACKAGE_UNPACKED_BYTES = 16 * 1024 * 1024;
var MAX_TREE_UNPACKED_BYTES = 48 * 1024 * 1024;
var MAX_PACKAGE_BINARY_NAME_CHARS = 256 * 1024;
var MAX_TARBALL_BYTES = 8 * 1024 * 1024;
var MAX_REGISTRY_RESPONSE_BYTES = 8 * 1024 * 1024;
var MAX_PACKUMENT_BYTES_PER_RESOLUTION = 64 * 1024 * 1024;
var MAX_PACKAGE_SOURCE_MAP_CHARS = 1024 * 1024;
var SHARED_PACKAGE_SHARD_BYTES = 128 * 1024 * 1024;
var SHARED_PACKAGE_DISK_HEADROOM_BYTES = 1024 * 1024 * 1024;
var MAX_PACKAGE_TYPES_BYTES = 8 * 1024 * 1024;

// ../workshop-pool/src/protocol.ts
var EVENT_LINE_MARKER = "\u001eGWEV1 ";

// src/isolate/harness/contract.ts
var HARNESS_CONSOLE_MODULE = "__workshop_console.js";

// src/isolate/harness/console-shim.ts
var LEVELS = ["log", "info", "warn", "error", "debug"];
function withoutFramesOf(stack, moduleName) {
  return stack.split("\\n").filter((line) => !line.includes(moduleName)).join("\\n");
}
function isTabular(data) {
  if (typeof data !== "object" || data === null) return false;
  if (Array.isArray(data)) return true;
  return !(data instanceof Map || data instanceof Set || data instanceof Date || data instanceof RegExp || data instanceof Error || data instanceof Promise || ArrayBuffer.isView(data));
}
function tableColumns(data, columns) {
  if (!isTabular(data)) return void 0;
  const cut = (key) => String(key).slice(0, 200);
  if (Array.isArray(columns)) return columns.slice(0, CONSOLE_CAPS.maxKeys).map(cut);
  const rows = Array.isArray(data) ? data.slice(0, CONSOLE_CAPS.maxKeys) : Object.values(data).slice(0, CONSOLE_CAPS.maxKeys);
  const seen = /* @__PURE__ */ new Set();
  for (const row of rows) {
    if (!isTabular(row)) continue;
    for (const key of Object.keys(row)) {
      if (seen.size >= CONSOLE_CAPS.maxKeys) break;
      seen.add(cut(key));
    }
  }
  return [...seen];
}
function installConsole(target, output, now) {
  function write(run, level, args, layout) {
    const depth = run.groupDepth ?? 0;
    if (depth === 0) output.log(run, level, args, layout);
    else
      output.log(run, level, args, {
        depth: Math.min(depth, MAX_CONSOLE_GROUP_DEPTH),
        ...layout
      });
  }
  function logAll(level, args, layout) {
    for (const run of output.current()) write(run, level, args, layout);
  }
  for (const level of LEVELS) target[level] = (...args) => logAll(level, args);
  const dir = (...args) => logAll("log", args);
  target.dir = dir;
  target.dirxml = dir;
  target.table = (...args) => {
    let columns;
    try {
      columns = tableColumns(args[0], args[1]);
    } catch {
    }
    if (columns) logAll("log", [args[0]], { table: { columns } });
    else logAll("log", args);
  };
  const group = (kind, name) => (...label) => {
    for (const run of output.current()) {
      const depth = run.groupDepth ?? 0;
      const layout = depth < MAX_CONSOLE_GROUP_DEPTH ? { group: kind } : void 0;
      write(run, "log", label.length > 0 ? label : [name], layout);
      run.groupDepth = depth + 1;
    }
  };
  target.group = group("open", "console.group");
  target.groupCollapsed = group("collapsed", "console.groupCollapsed");
  target.groupEnd = () => {
    for (const run of output.current()) if (run.groupDepth) run.groupDepth--;
  };
  target.assert = (condition, ...args) => {
    if (condition) return;
    if (typeof args[0] === "string") logAll("error", [\`Assertion failed: \${args[0]}\`, ...args.slice(1)]);
    else logAll("error", ["Assertion failed", ...args]);
  };
  target.count = (label = "default") => {
    for (const run of output.current()) {
      run.counts ??= /* @__PURE__ */ new Map();
      const n = (run.counts.get(String(label)) ?? 0) + 1;
      run.counts.set(String(label), n);
      write(run, "log", [\`\${String(label)}: \${n}\`]);
    }
  };
  target.countReset = (label = "default") => {
    for (const run of output.current()) run.counts?.delete(String(label));
  };
  const elapsed = (start) => \`\${(now() - start).toFixed(3)} ms\`;
  target.time = (label = "default") => {
    for (const run of output.current()) {
      run.timers ??= /* @__PURE__ */ new Map();
      if (run.timers.has(String(label))) write(run, "warn", [\`Timer '\${String(label)}' already exists\`]);
      else run.timers.set(String(label), now());
    }
  };
  const timerEnd = (remove) => (label = "default", ...args) => {
    for (const run of output.current()) {
      const start = run.timers?.get(String(label));
      if (start === void 0) {
        write(run, "warn", [\`Timer '\${String(label)}' does not exist\`]);
        continue;
      }
      if (remove) run.timers?.delete(String(label));
      write(run, "log", [\`\${String(label)}: \${elapsed(start)}\`, ...args]);
    }
  };
  target.timeEnd = timerEnd(true);
  target.timeLog = timerEnd(false);
  target.trace = (...args) => {
    const trace = new Error(args.length > 0 ? args.map((arg) => String(arg)).join(" ") : "console.trace");
    trace.name = "Trace";
    trace.stack = withoutFramesOf(String(trace.stack ?? ""), HARNESS_CONSOLE_MODULE);
    logAll("log", [trace]);
  };
}

// ../workshop-shared/src/console-values.ts
function encodeConsoleValues(values, caps) {
  let nodes = 0;
  let chars = 0;
  const path = [];
  function cut(text) {
    const room = Math.max(0, Math.min(caps.maxStringLength, caps.maxCharsPerCall - chars));
    if (text.length <= room) {
      chars += text.length;
      return { t: "string", v: text };
    }
    chars += room;
    return { t: "string", v: text.slice(0, room), length: text.length };
  }
  function safeString(read) {
    try {
      const value = read();
      return typeof value === "string" ? value.slice(0, caps.maxStringLength) : "";
    } catch {
      return "";
    }
  }
  function ctorName(value) {
    try {
      const proto = Object.getPrototypeOf(value);
      if (proto === null) return "Object";
      const ctor = proto.constructor;
      const name = typeof ctor === "function" ? ctor.name : "";
      return typeof name === "string" && name ? name.slice(0, 100) : "Object";
    } catch {
      return "Object";
    }
  }
  function reason(error) {
    try {
      return error instanceof Error ? \`\${error.name}: \${error.message}\`.slice(0, 200) : String(error).slice(0, 200);
    } catch {
      return "unknown error";
    }
  }
  function encode2(value, depth) {
    nodes++;
    switch (typeof value) {
      case "undefined":
        return { t: "undefined" };
      case "boolean":
        return { t: "boolean", v: value };
      case "number":
        if (Number.isFinite(value) && !Object.is(value, -0)) return { t: "number", v: value };
        return { t: "number", v: Object.is(value, -0) ? "-0" : String(value) };
      case "bigint":
        return { t: "bigint", v: String(value).slice(0, caps.maxStringLength) };
      case "string":
        return cut(value);
      case "symbol":
        return { t: "symbol", v: safeString(() => value.toString()) };
      case "function":
        return { t: "function", name: safeString(() => value.name) };
    }
    if (value === null) return { t: "null" };
    const object = value;
    if (path.includes(object)) return { t: "circular" };
    try {
      if (object instanceof Date) {
        const time = object.getTime();
        return { t: "date", v: Number.isNaN(time) ? "Invalid Date" : object.toISOString() };
      }
      if (object instanceof RegExp) return { t: "regexp", v: safeString(() => object.toString()) };
      if (object instanceof Error) {
        return {
          t: "error",
          name: safeString(() => object.name) || "Error",
          message: safeString(() => object.message),
          stack: safeString(() => object.stack)
        };
      }
      if (object instanceof Promise) return { t: "promise" };
      if (depth >= caps.maxDepth || nodes >= caps.maxNodes) return { t: "truncated", ctor: ctorName(object) };
      path.push(object);
      try {
        if (Array.isArray(object)) {
          const items = [];
          const shown2 = Math.min(object.length, caps.maxKeys);
          for (let i = 0; i < shown2 && nodes < caps.maxNodes; i++) items.push(encodeEntry(() => object[i], depth));
          return { t: "array", items, length: object.length };
        }
        if (ArrayBuffer.isView(object) && !(object instanceof DataView)) {
          const view = object;
          const items = [];
          const shown2 = Math.min(view.length, caps.maxKeys);
          for (let i = 0; i < shown2; i++) items.push(Number(view[i]));
          return { t: "typedarray", ctor: ctorName(object), items, length: view.length };
        }
        if (object instanceof Map) {
          const entries2 = [];
          for (const [key, entry] of object) {
            if (entries2.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
            entries2.push([encode2(key, depth + 1), encode2(entry, depth + 1)]);
          }
          return { t: "map", entries: entries2, size: object.size };
        }
        if (object instanceof Set) {
          const items = [];
          for (const item of object) {
            if (items.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
            items.push(encode2(item, depth + 1));
          }
          return { t: "set", items, size: object.size };
        }
        const keys = Object.keys(object);
        const entries = [];
        for (const key of keys) {
          if (entries.length >= caps.maxKeys || nodes >= caps.maxNodes) break;
          entries.push([key.slice(0, 200), encodeEntry(() => object[key], depth)]);
        }
        return { t: "object", ctor: ctorName(object), entries, size: keys.length };
      } finally {
        path.pop();
      }
    } catch (error) {
      return { t: "unreadable", reason: reason(error) };
    }
  }
  function encodeEntry(read, depth) {
    try {
      return encode2(read(), depth + 1);
    } catch (error) {
      return { t: "unreadable", reason: reason(error) };
    }
  }
  const out = [];
  const shown = Math.min(values.length, caps.maxArgs);
  for (let i = 0; i < shown; i++) out.push(encodeEntry(() => values[i], -1));
  if (values.length > shown) out.push({ t: "string", v: \`\\u2026 \${values.length - shown} more arguments\` });
  return out;
}

// src/isolate/harness/plain-json.ts
var stringify = JSON.stringify;
var finite = Number.isFinite;
var isArray = Array.isArray;
var ownKeys = Object.keys;
var ownProperty = Object.getOwnPropertyDescriptor;
var hasOwn = Object.hasOwn;
function own(target, key) {
  const descriptor = ownProperty(target, key);
  return descriptor !== void 0 && hasOwn(descriptor, "value") ? descriptor.value : void 0;
}
function plainJson(value) {
  return encode(value) ?? "null";
}
function encode(value) {
  if (value === null) return "null";
  switch (typeof value) {
    case "string":
      return stringify(value);
    case "number":
      return finite(value) ? stringify(value) : "null";
    case "boolean":
      return value ? "true" : "false";
    case "object":
      break;
    default:
      return void 0;
  }
  const target = value;
  if (isArray(target)) {
    const length = own(target, "length");
    let text2 = "[";
    for (let i = 0; i < length; i++) text2 += \`\${i === 0 ? "" : ","}\${encode(own(target, i)) ?? "null"}\`;
    return \`\${text2}]\`;
  }
  const keys = ownKeys(target);
  let text = "{";
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i];
    const encoded = encode(own(target, key));
    if (encoded === void 0) continue;
    text += \`\${first ? "" : ","}\${stringify(key)}:\${encoded}\`;
    first = false;
  }
  return \`\${text}}\`;
}

// src/isolate/harness/describe-thrown.ts
function describeThrown(thrown) {
  try {
    if (thrown instanceof Error) {
      return {
        name: String(thrown.name).slice(0, 200),
        message: String(thrown.message).slice(0, 1e4),
        stack: String(thrown.stack ?? "").slice(0, 2e4)
      };
    }
    const [encoded] = encodeConsoleValues([thrown], CONSOLE_CAPS);
    return { name: "Thrown", message: \`a non-Error value was thrown: \${plainJson(encoded).slice(0, 1e3)}\`, stack: "" };
  } catch {
    return { name: "Thrown", message: "an unprintable value was thrown", stack: "" };
  }
}

// src/isolate/harness/event-channel.ts
function createEventChannel(writeLine) {
  function emit(run, event) {
    run.emitted++;
    if (run.sink) {
      const call = event.kind !== "log" ? run.sink.error(event.data[0], event.data[1]) : event.data[2] ? run.sink.log(event.data[0], event.data[1], event.data[2]) : run.sink.log(event.data[0], event.data[1]);
      run.pending[run.pending.length] = Promise.resolve(call).catch(() => {
      });
    } else {
      run.lines++;
      const line = plainJson([run.id, event.kind, event.data]);
      run.bytes += line.length;
      writeLine(EVENT_LINE_MARKER + line);
    }
  }
  function countDropped(run) {
    run.dropped++;
    if (run.dropped !== 1 && run.dropped % DROPPED_TALLY_EVERY !== 0) return;
    if (run.sink) run.pending[run.pending.length] = Promise.resolve(run.sink.dropped(run.dropped)).catch(() => {
    });
    else writeLine(EVENT_LINE_MARKER + plainJson([run.id, "dropped", [run.dropped]]));
  }
  function log(run, level, args, layout) {
    if (run.emitted >= MAX_EVENTS_PER_RUN || run.bytes >= MAX_EVENT_BYTES_PER_RUN) {
      countDropped(run);
      return;
    }
    let values;
    try {
      values = encodeConsoleValues(args, CONSOLE_CAPS);
    } catch {
      values = [{ t: "unreadable", reason: "console value could not be encoded" }];
    }
    emit(run, { kind: "log", data: layout ? [level, values, layout] : [level, values] });
  }
  function finish(run) {
    if (run.lines > 0) writeLine(\`\${EVENT_LINE_MARKER}\${plainJson([run.id, "done", run.lines])}\`);
  }
  return { emit, log, finish };
}

// src/isolate/harness/run-registry.ts
import { AsyncLocalStorage } from "node:async_hooks";
var apply = Reflect.apply;
var storeOf = AsyncLocalStorage.prototype.getStore;
var runWithin = AsyncLocalStorage.prototype.run;
function createRunRegistry() {
  const context = new AsyncLocalStorage();
  const active = /* @__PURE__ */ Object.create(null);
  let activeCount = 0;
  return {
    current() {
      const run = apply(storeOf, context, []);
      if (run) return [run];
      if (activeCount !== 1) return [];
      for (const id in active) return [active[id]];
      return [];
    },
    begin(run) {
      active[run.id] = run;
      activeCount++;
    },
    end(run) {
      delete active[run.id];
      activeCount--;
    },
    within(run, work) {
      return apply(runWithin, context, [run, work]);
    }
  };
}

// src/isolate/harness/console-module.ts
var events = createEventChannel(console.log.bind(console));
var runs = createRunRegistry();
installConsole(console, { current: runs.current, log: events.log }, () => performance.now());
function reportUncaught(thrown) {
  for (const run of runs.current()) events.emit(run, { kind: "error", data: [describeThrown(thrown), true] });
}
var scope = globalThis;
scope.addEventListener("unhandledrejection", (event) => {
  event.preventDefault?.();
  reportUncaught(event.reason);
});
scope.addEventListener("error", (event) => reportUncaught(event.error ?? event.message));
var claimed = false;
function claim() {
  if (claimed) return void 0;
  claimed = true;
  return Object.freeze({
    describe: describeThrown,
    begin: runs.begin,
    end: runs.end,
    within: runs.within,
    finish: events.finish
  });
}
export {
  claim
};
`;

/** The isolate's main module: harness-module.ts and what it imports; the gadget's entry is "gadget:entry". */
export const HARNESS_MODULE_TEXT = `// src/isolate/harness/harness-module.ts
import { WorkerEntrypoint } from "cloudflare:workers";
import { claim } from "./__workshop_console.js";
import * as entry from "gadget:entry";

// src/isolate/harness/gadget-env.ts
var BODYLESS_STATUSES = [101, 204, 205, 304];
function buildEnv(grants, capabilities, secrets = null) {
  const call = async (request) => {
    if (!capabilities) throw new Error("This gadget was granted no capabilities.");
    const reply = await capabilities.call(request);
    if (reply?.ok !== true)
      throw new Error(reply && typeof reply.error === "string" ? reply.error : "The capability call failed.");
    return reply.value;
  };
  const env = {};
  if (grants?.kv) {
    env.kv = Object.freeze({
      get: (key) => call({ capability: "kv", op: "get", key: String(key) }),
      put: (key, value) => call({ capability: "kv", op: "put", key: String(key), value: String(value) }),
      delete: (key) => call({ capability: "kv", op: "delete", key: String(key) }),
      list: (prefix = "") => call({ capability: "kv", op: "list", prefix: String(prefix) })
    });
  }
  if (grants?.fetch) {
    env.fetch = async (input, init) => {
      const request = new Request(input, init);
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : void 0;
      const reply = await call({
        capability: "fetch",
        url: request.url,
        method: request.method,
        headers: [...request.headers],
        ...body ? { body } : {}
      });
      const bodyless = BODYLESS_STATUSES.includes(reply.status);
      return new Response(bodyless ? null : reply.body ?? null, {
        status: reply.status,
        statusText: reply.statusText,
        headers: reply.headers
      });
    };
  }
  if (grants?.catalog) {
    env.catalog = Object.freeze({
      get: (ref) => Object.freeze({
        run: (payload) => call({
          capability: "catalog",
          ref: String(ref),
          payload: payload === void 0 ? null : payload
        })
      })
    });
  }
  if (grants?.secrets) {
    const values = {};
    for (const name of grants.secrets) {
      const value = secrets && Object.hasOwn(secrets, name) ? secrets[name] : void 0;
      if (typeof value === "string") values[name] = value;
    }
    env.secrets = Object.freeze(values);
  }
  return Object.freeze(env);
}

// ../workshop-shared/src/limits.ts
var MAX_PAYLOAD_BYTES = 1024 * 1024;
var MAX_RESULT_BYTES = 1024 * 1024;
var MAX_JSON_DEPTH = 64;
var MAX_FILE_BYTES = 256 * 1024;
var MAX_CODE_MODE_BYTES = MAX_FILE_BYTES - 64;
var MAX_GADGET_BYTES = 1024 * 1024;
var MAX_NAME_LENGTH = 64;
var MAX_SCHEMA_BYTES = 64 * 1024;
var MAX_ID_LENGTH = 64;
var MAX_AGENT_REF_LENGTH = Math.max(MAX_ID_LENGTH, MAX_NAME_LENGTH) + 12;
var MAX_RUN_RECORDS_PER_WORKSPACE = 1e3;
var MAX_EVENT_BYTES_PER_RUN = 2 * 1024 * 1024;
var RUN_MEMORY_LIMIT_BYTES = 128 * 1024 * 1024;
var KV_MAX_VALUE_BYTES = 64 * 1024;
var KV_MAX_TOTAL_BYTES = 1024 * 1024;
var MAX_FETCH_RESPONSE_BYTES = 1024 * 1024;
var MAX_FETCH_REQUEST_BYTES = 1024 * 1024;
var MAX_TEST_RESULT_BYTES = 64 * 1024;
var MAX_TRACE_BYTES = 128 * 1024;
var WORKSPACE_QUOTA_BYTES = 64 * 1024 * 1024;
var MAX_RUN_RECORD_BYTES_PER_WORKSPACE = 16 * 1024 * 1024;
var MAX_ENDPOINT_RUN_RECORDS_PER_WORKSPACE = MAX_RUN_RECORDS_PER_WORKSPACE / 2;
var MAX_ENDPOINT_RUN_RECORD_BYTES_PER_WORKSPACE = MAX_RUN_RECORD_BYTES_PER_WORKSPACE / 2;
var MIN_FREE_DISK_BYTES = 512 * 1024 * 1024;
var MAX_CODE_MODE_TYPES_CHARS = 32 * 1024;
var MAX_CATALOG_TYPES_CHARS = 256 * 1024;
var MAX_MCP_BODY_BYTES = 2 * 1024 * 1024 + 64 * 1024;
var MAX_MCP_SUMMARY_CHARS = 8 * 1024;
var MAX_SECRET_BYTES = 8 * 1024;
var MAX_SCHEDULE_INTERVAL_MS = 366 * 24 * 60 * 60 * 1e3;
var MAX_ENDPOINT_BODY_BYTES = 512 * 1024;
var MAX_ENDPOINT_HEADER_VALUE_CHARS = 8 * 1024;
var MAX_PACKAGE_UNPACKED_BYTES = 16 * 1024 * 1024;
var MAX_TREE_UNPACKED_BYTES = 48 * 1024 * 1024;
var MAX_PACKAGE_BINARY_NAME_CHARS = 256 * 1024;
var MAX_TARBALL_BYTES = 8 * 1024 * 1024;
var MAX_REGISTRY_RESPONSE_BYTES = 8 * 1024 * 1024;
var MAX_PACKUMENT_BYTES_PER_RESOLUTION = 64 * 1024 * 1024;
var MAX_PACKAGE_SOURCE_MAP_CHARS = 1024 * 1024;
var SHARED_PACKAGE_SHARD_BYTES = 128 * 1024 * 1024;
var SHARED_PACKAGE_DISK_HEADROOM_BYTES = 1024 * 1024 * 1024;
var MAX_PACKAGE_TYPES_BYTES = 8 * 1024 * 1024;

// src/isolate/harness/json-text-depth.ts
var QUOTE = 34;
var BACKSLASH = 92;
function jsonTextDepth(text) {
  let open = 0;
  let deepest = 0;
  const length = text.length;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (c === 93 || c === 125) {
      open--;
      continue;
    }
    if (c === 44 || c === 58 || c === 32 || c === 10 || c === 13 || c === 9) continue;
    if (open > deepest) deepest = open;
    if (c === 91 || c === 123) open++;
    else if (c === QUOTE) i = closingQuote(text, i);
  }
  return deepest;
}
function closingQuote(text, at) {
  for (let quote = text.indexOf('"', at + 1); quote !== -1; quote = text.indexOf('"', quote + 1)) {
    let backslashes = 0;
    while (text.charCodeAt(quote - 1 - backslashes) === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return quote;
  }
  return text.length;
}

// src/isolate/harness/run-result.ts
var invalid = (message) => ({
  status: "error",
  kind: "invalid",
  error: { name: "InvalidResult", message, stack: "" }
});
function tooDeep(depth) {
  return \`run() returned JSON nested \${depth} levels deep; the limit is \${MAX_JSON_DEPTH} levels, as for payloads. Return flatter data.\`;
}
function toResult(value, describe2) {
  let text;
  try {
    text = JSON.stringify(value === void 0 ? null : value);
  } catch (error) {
    return invalid(
      \`run() returned a value that is not JSON (\${describe2(error).message}). Return plain data: objects, arrays, strings, numbers, booleans or null.\`
    );
  }
  if (text === void 0) return invalid(\`run() returned a \${typeof value}, which is not JSON. Return plain data.\`);
  if (text.length > MAX_RESULT_BYTES) {
    return invalid(\`run() returned \${text.length} bytes of JSON; the limit is \${MAX_RESULT_BYTES}. Return less data.\`);
  }
  const depth = jsonTextDepth(text);
  if (depth > MAX_JSON_DEPTH) return invalid(tooDeep(depth));
  return { status: "ok", json: text };
}

// src/isolate/harness/run-state.ts
function newRunState(id, sink) {
  return { id, sink, pending: [], lines: 0, emitted: 0, bytes: 0, dropped: 0 };
}

// src/isolate/harness/harness-module.ts
var isGadget = (value) => Boolean(value) && typeof value.run === "function";
var channel = claim();
var describe = channel ? channel.describe : () => ({ name: "Error", message: "", stack: "" });
var invalidGadget = (message) => ({
  status: "error",
  kind: "invalid",
  error: { name: "InvalidGadget", message, stack: "" }
});
var GadgetHarness = class extends WorkerEntrypoint {
  async run(payload, sink, runId, grants, capabilities, secrets = null) {
    if (!channel) {
      return {
        ...invalidGadget(
          "The gadget imported the Workshop's own console module, which it may not use. Import only the gadget's own files."
        ),
        eventLines: 0,
        droppedEvents: 0
      };
    }
    const env = buildEnv(grants, capabilities, secrets);
    const run = newRunState(runId, sink);
    channel.begin(run);
    try {
      const reply = await channel.within(run, async () => {
        const gadget = entry.default;
        if (!isGadget(gadget)) {
          return invalidGadget(
            "The entry module has no default export with a run() method. Write: export default { async run(payload, env) { \\u2026 } }"
          );
        }
        try {
          return toResult(await gadget.run(payload, env), describe);
        } catch (thrown) {
          return { status: "error", kind: "user", error: describe(thrown) };
        }
      });
      return { ...reply, eventLines: run.lines, droppedEvents: run.dropped };
    } finally {
      channel.end(run);
      await Promise.all(run.pending);
      channel.finish(run);
    }
  }
};
export {
  GadgetHarness
};
`;

/** SHA-256 of both texts: part of every gadget's content hash, so no isolate built with another harness is reused. */
export const HARNESS_DIGEST = "73c6c3d69aa470e7a0f3007762074e7faa2a857ce7f8d4dc7473cf025e1cdd50";
