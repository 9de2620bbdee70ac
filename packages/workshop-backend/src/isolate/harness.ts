/**
 * The harness modules that run inside every gadget isolate. They are generated as source text: the
 * isolate can only load modules as strings. The console module shims the console so every call
 * streams to the overseer while the run goes on, and catches uncaught errors and rejections; the
 * harness imports it before the gadget's entry, and returns the result (or the error) as data —
 * nothing is thrown across the isolate boundary.
 */

import { encodeConsoleValues } from "@gadgets/workshop-shared/console-values";
import {
  CONSOLE_CAPS,
  DROPPED_TALLY_EVERY,
  MAX_EVENT_BYTES_PER_RUN,
  MAX_EVENTS_PER_RUN,
  MAX_RESULT_BYTES,
} from "@gadgets/workshop-shared/limits";

export const HARNESS_MODULE = "__workshop_harness.js";
export const HARNESS_ENTRYPOINT = "GadgetHarness";
/**
 * Starts every event line the harness writes to the process's stdout (the runner pool's channel):
 * `<marker>[runId, kind, data]`. A line is written synchronously, so it leaves the isolate even when
 * the gadget then spins for ever.
 */
export const EVENT_LINE_MARKER = "\u001eGWEV1 ";

/**
 * The console module: evaluated before any module of the gadget (the harness imports it first), so the
 * channel it binds — the process's own console.log, JSON.stringify, the run context — is the real one,
 * whatever the gadget later does to globals. Its state is private; the harness claims its one API.
 */
export const HARNESS_CONSOLE_MODULE = "__workshop_console.js";

export function harnessConsoleSource(): string {
  return `
import { AsyncLocalStorage } from "node:async_hooks";

const CAPS = ${JSON.stringify(CONSOLE_CAPS)};
// Past this, console calls are only counted: a flood costs neither encoding nor transport.
const MAX_EVENTS = ${MAX_EVENTS_PER_RUN};
// And past this much event text: the overseer would drop the rest, so it is not even sent.
const MAX_EVENT_BYTES = ${MAX_EVENT_BYTES_PER_RUN};
const DROPPED_TALLY_EVERY = ${DROPPED_TALLY_EVERY};
const encodeConsoleValues = ${encodeConsoleValues.toString()};
const MARKER = ${JSON.stringify(EVENT_LINE_MARKER)};

// Taken before the gadget's code runs, and only ever called through these bindings.
const nativeLog = console.log.bind(console);
const apply = Reflect.apply;
const stringify = JSON.stringify;
const storeOf = AsyncLocalStorage.prototype.getStore;
const runWithin = AsyncLocalStorage.prototype.run;

// Warm isolates serve concurrent runs of the same code: each run's sink travels in async context.
const runContext = new AsyncLocalStorage();
// Runs in flight by id; a plain object, so no prototype method the gadget could replace is called.
const activeRuns = Object.create(null);
let activeCount = 0;

// A run has either an RPC sink, or (in the local runner pool) writes event lines to stdout.
function emit(run, kind, data) {
  run.emitted++;
  if (run.sink) {
    const call = kind === "log" ? run.sink.log(data[0], data[1]) : run.sink.error(data[0], data[1]);
    run.pending[run.pending.length] = Promise.resolve(call).catch(() => {});
  } else {
    run.lines++;
    const line = stringify([run.id, kind, data]);
    run.bytes += line.length;
    nativeLog(MARKER + line);
  }
}

// A running total, so whoever stops the run from outside still knows about how much was dropped.
function countDropped(run) {
  run.dropped++;
  if (run.dropped !== 1 && run.dropped % DROPPED_TALLY_EVERY !== 0) return;
  if (run.sink) run.pending[run.pending.length] = Promise.resolve(run.sink.dropped(run.dropped)).catch(() => {});
  else nativeLog(MARKER + stringify([run.id, "dropped", [run.dropped]]));
}

function describe(thrown) {
  try {
    if (thrown instanceof Error) {
      return { name: String(thrown.name).slice(0, 200), message: String(thrown.message).slice(0, 10000), stack: String(thrown.stack ?? "").slice(0, 20000) };
    }
    const [encoded] = encodeConsoleValues([thrown], CAPS);
    return { name: "Thrown", message: "a non-Error value was thrown: " + stringify(encoded).slice(0, 1000), stack: "" };
  } catch {
    return { name: "Thrown", message: "an unprintable value was thrown", stack: "" };
  }
}

// Output without an async context (say, an unhandled rejection) belongs to the one active run; with
// several runs in flight it cannot be attributed, and is dropped rather than shown to the wrong run.
function currentRuns() {
  const run = apply(storeOf, runContext, []);
  if (run) return [run];
  if (activeCount !== 1) return [];
  for (const id in activeRuns) return [activeRuns[id]];
  return [];
}

function logTo(run, level, args) {
  if (run.emitted >= MAX_EVENTS || run.bytes >= MAX_EVENT_BYTES) {
    countDropped(run);
    return;
  }
  let values;
  try {
    values = encodeConsoleValues(args, CAPS);
  } catch (error) {
    values = [{ t: "unreadable", reason: "console value could not be encoded" }];
  }
  emit(run, "log", [level, values]);
}

// Every console method calls these, never the (replaceable) console methods themselves.
function logAll(level, args) {
  for (const run of currentRuns()) logTo(run, level, args);
}

for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => logAll(level, args);
}

// The rest of the console behaves as in browsers, with its counters and timers kept per run (a warm
// isolate serves many runs). Every method goes through logTo: none may write to the process directly.
// Timers read performance.now(), which in Workers advances only while the code waits (I/O, timers).
const tableOrDir = (...args) => logAll("log", args);
console.table = tableOrDir;
console.dir = tableOrDir;
console.dirxml = tableOrDir;
console.group = (...label) => logAll("log", label.length > 0 ? label : ["console.group"]);
console.groupCollapsed = console.group;
console.groupEnd = () => {};
console.assert = (condition, ...args) => {
  if (condition) return;
  if (typeof args[0] === "string") logAll("error", ["Assertion failed: " + args[0], ...args.slice(1)]);
  else logAll("error", ["Assertion failed", ...args]);
};
console.count = (label = "default") => {
  for (const run of currentRuns()) {
    run.counts ??= new Map();
    const n = (run.counts.get(String(label)) ?? 0) + 1;
    run.counts.set(String(label), n);
    logTo(run, "log", [String(label) + ": " + n]);
  }
};
console.countReset = (label = "default") => {
  for (const run of currentRuns()) run.counts?.delete(String(label));
};
const elapsed = (start) => (performance.now() - start).toFixed(3) + " ms";
console.time = (label = "default") => {
  for (const run of currentRuns()) {
    run.timers ??= new Map();
    if (run.timers.has(String(label))) logTo(run, "warn", ["Timer '" + String(label) + "' already exists"]);
    else run.timers.set(String(label), performance.now());
  }
};
const timerEnd = (remove) => (label = "default", ...args) => {
  for (const run of currentRuns()) {
    const start = run.timers?.get(String(label));
    if (start === undefined) {
      logTo(run, "warn", ["Timer '" + String(label) + "' does not exist"]);
      continue;
    }
    if (remove) run.timers.delete(String(label));
    logTo(run, "log", [String(label) + ": " + elapsed(start), ...args]);
  }
};
console.timeEnd = timerEnd(true);
console.timeLog = timerEnd(false);
console.trace = (...args) => {
  const trace = new Error(args.length > 0 ? args.map((arg) => String(arg)).join(" ") : "console.trace");
  trace.name = "Trace";
  // The stack starts inside this shim; the gadget's frames are what the reader wants.
  trace.stack = String(trace.stack ?? "")
    .split("\\n")
    .filter((line) => !line.includes(${JSON.stringify(HARNESS_CONSOLE_MODULE)}))
    .join("\\n");
  logAll("log", [trace]);
};

function reportUncaught(thrown) {
  for (const run of currentRuns()) emit(run, "error", [describe(thrown), true]);
}
addEventListener("unhandledrejection", (event) => {
  event.preventDefault?.();
  reportUncaught(event.reason);
});
addEventListener("error", (event) => reportUncaught(event.error ?? event.message));

let claimed = false;
/** The harness's handle on the channel, given out once: a gadget that takes it first fails its runs. */
export function claim() {
  if (claimed) return undefined;
  claimed = true;
  return Object.freeze({
    describe,
    begin(run) {
      activeRuns[run.id] = run;
      activeCount++;
    },
    end(run) {
      delete activeRuns[run.id];
      activeCount--;
    },
    within(run, work) {
      return apply(runWithin, runContext, [run, work]);
    },
    finish(run) {
      if (run.lines > 0) nativeLog(MARKER + stringify([run.id, "done", run.lines]));
    },
  });
}
`;
}

/** Source of the harness for a gadget whose entry module is `entryModule`. */
export function harnessSource(entryModule: string): string {
  return `
import { WorkerEntrypoint } from "cloudflare:workers";
import { claim } from ${JSON.stringify(`./${HARNESS_CONSOLE_MODULE}`)};
import * as entry from ${JSON.stringify(`./${entryModule}`)};

const MAX_RESULT_BYTES = ${MAX_RESULT_BYTES};
// Claimed while this module evaluates, right after the gadget's modules: before any of its async code.
const channel = claim();
const describe = channel ? channel.describe : () => ({ name: "Error", message: "", stack: "" });

// env holds exactly the granted capabilities; each call goes out to the overseer, which decides.
function buildEnv(grants, capabilities) {
  const call = async (request) => {
    const reply = await capabilities.call(request);
    if (!reply || reply.ok !== true) throw new Error(reply && typeof reply.error === "string" ? reply.error : "The capability call failed.");
    return reply.value;
  };
  const env = {};
  if (grants && grants.kv) {
    env.kv = Object.freeze({
      get: (key) => call({ capability: "kv", op: "get", key: String(key) }),
      put: (key, value) => call({ capability: "kv", op: "put", key: String(key), value: String(value) }),
      delete: (key) => call({ capability: "kv", op: "delete", key: String(key) }),
      list: (prefix = "") => call({ capability: "kv", op: "list", prefix: String(prefix) }),
    });
  }
  if (grants && grants.fetch) {
    env.fetch = async (input, init) => {
      const request = new Request(input, init);
      const body = request.body ? new Uint8Array(await request.arrayBuffer()) : undefined;
      const reply = await call({ capability: "fetch", url: request.url, method: request.method, headers: [...request.headers], ...(body ? { body } : {}) });
      // These statuses have no body, and the Response constructor refuses one.
      const bodyless = [101, 204, 205, 304].includes(reply.status);
      return new Response(bodyless ? null : (reply.body ?? null), { status: reply.status, statusText: reply.statusText, headers: reply.headers });
    };
  }
  if (grants && grants.catalog) {
    env.catalog = Object.freeze({
      get: (ref) => Object.freeze({ run: (payload) => call({ capability: "catalog", ref: String(ref), payload: payload === undefined ? null : payload }) }),
    });
  }
  return Object.freeze(env);
}

function toResult(value) {
  let text;
  try {
    text = JSON.stringify(value === undefined ? null : value);
  } catch (error) {
    return { status: "error", kind: "invalid", error: { name: "InvalidResult", message: "run() returned a value that is not JSON (" + describe(error).message + "). Return plain data: objects, arrays, strings, numbers, booleans or null.", stack: "" } };
  }
  if (text === undefined) {
    return { status: "error", kind: "invalid", error: { name: "InvalidResult", message: "run() returned a " + typeof value + ", which is not JSON. Return plain data.", stack: "" } };
  }
  if (text.length > MAX_RESULT_BYTES) {
    return { status: "error", kind: "invalid", error: { name: "InvalidResult", message: "run() returned " + text.length + " bytes of JSON; the limit is " + MAX_RESULT_BYTES + ". Return less data.", stack: "" } };
  }
  return { status: "ok", json: text };
}

export class ${HARNESS_ENTRYPOINT} extends WorkerEntrypoint {
  async run(payload, sink, runId, grants, capabilities) {
    if (!channel) {
      return { status: "error", kind: "invalid", error: { name: "InvalidGadget", message: "The gadget imported the Workshop's own console module, which it may not use. Import only the gadget's own files.", stack: "" }, eventLines: 0, droppedEvents: 0 };
    }
    const env = buildEnv(grants, capabilities);
    const run = { sink, id: runId, pending: [], lines: 0, emitted: 0, bytes: 0, dropped: 0 };
    channel.begin(run);
    try {
      const reply = await channel.within(run, async () => {
        const gadget = entry.default;
        if (!gadget || typeof gadget.run !== "function") {
          return { status: "error", kind: "invalid", error: { name: "InvalidGadget", message: "The entry module has no default export with a run() method. Write: export default { async run(payload, env) { … } }", stack: "" } };
        }
        try {
          return toResult(await gadget.run(payload, env));
        } catch (thrown) {
          return { status: "error", kind: "user", error: describe(thrown) };
        }
      });
      return { ...reply, eventLines: run.lines, droppedEvents: run.dropped };
    } finally {
      channel.end(run);
      // Log calls still in flight would be lost once run() returns and the sink is released.
      await Promise.all(run.pending);
      channel.finish(run);
    }
  }
}
`;
}
