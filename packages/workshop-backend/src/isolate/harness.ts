/**
 * The harness module that runs inside every gadget isolate. It is generated as source text: the
 * isolate can only load modules as strings. It imports the gadget's entry, shims the console so every
 * call streams to the overseer while the run goes on, catches uncaught errors and rejections, and
 * returns the result (or the error) as data — nothing is thrown across the isolate boundary.
 */

import { encodeConsoleValues } from "@gadgets/workshop-shared/console-values";
import {
  CONSOLE_CAPS,
  DROPPED_TALLY_EVERY,
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

/** Source of the harness for a gadget whose entry module is `entryModule`. */
export function harnessSource(entryModule: string): string {
  return `
import { WorkerEntrypoint } from "cloudflare:workers";
import { AsyncLocalStorage } from "node:async_hooks";
import * as entry from ${JSON.stringify(`./${entryModule}`)};

const CAPS = ${JSON.stringify(CONSOLE_CAPS)};
const MAX_RESULT_BYTES = ${MAX_RESULT_BYTES};
// Past this, console calls are only counted: a flood costs neither encoding nor transport.
const MAX_EVENTS = ${MAX_EVENTS_PER_RUN};
const DROPPED_TALLY_EVERY = ${DROPPED_TALLY_EVERY};
const encodeConsoleValues = ${encodeConsoleValues.toString()};

// Warm isolates serve concurrent runs of the same code: each run's sink travels in async context.
const runContext = new AsyncLocalStorage();
const activeRuns = new Set();
const nativeLog = console.log.bind(console);
const MARKER = ${JSON.stringify(EVENT_LINE_MARKER)};

// A run has either an RPC sink, or (in the local runner pool) writes event lines to stdout.
function emit(run, kind, data) {
  run.emitted++;
  if (run.sink) {
    const call = kind === "log" ? run.sink.log(data[0], data[1]) : run.sink.error(data[0], data[1]);
    run.pending.push(Promise.resolve(call).catch(() => {}));
  } else {
    run.lines++;
    nativeLog(MARKER + JSON.stringify([run.id, kind, data]));
  }
}

// A running total, so whoever stops the run from outside still knows about how much was dropped.
function countDropped(run) {
  run.dropped++;
  if (run.dropped !== 1 && run.dropped % DROPPED_TALLY_EVERY !== 0) return;
  if (run.sink) run.pending.push(Promise.resolve(run.sink.dropped(run.dropped)).catch(() => {}));
  else nativeLog(MARKER + JSON.stringify([run.id, "dropped", [run.dropped]]));
}

function describe(thrown) {
  try {
    if (thrown instanceof Error) {
      return { name: String(thrown.name).slice(0, 200), message: String(thrown.message).slice(0, 10000), stack: String(thrown.stack ?? "").slice(0, 20000) };
    }
    const [encoded] = encodeConsoleValues([thrown], CAPS);
    return { name: "Thrown", message: "a non-Error value was thrown: " + JSON.stringify(encoded).slice(0, 1000), stack: "" };
  } catch {
    return { name: "Thrown", message: "an unprintable value was thrown", stack: "" };
  }
}

// Output without an async context (say, an unhandled rejection) belongs to the one active run; with
// several runs in flight it cannot be attributed, and is dropped rather than shown to the wrong run.
function currentRuns() {
  const run = runContext.getStore();
  if (run) return [run];
  return activeRuns.size === 1 ? [...activeRuns] : [];
}

for (const level of ["log", "info", "warn", "error", "debug"]) {
  console[level] = (...args) => {
    for (const run of currentRuns()) {
      if (run.emitted >= MAX_EVENTS) {
        countDropped(run);
        continue;
      }
      let values;
      try {
        values = encodeConsoleValues(args, CAPS);
      } catch (error) {
        values = [{ t: "unreadable", reason: "console value could not be encoded" }];
      }
      emit(run, "log", [level, values]);
    }
  };
}
// Every other console method goes through the same shim: none may write to the process directly.
const counts = new Map();
console.trace = console.debug;
console.table = console.log;
console.dir = console.log;
console.dirxml = console.log;
console.group = console.log;
console.groupCollapsed = console.log;
console.groupEnd = () => {};
console.assert = (condition, ...args) => {
  if (!condition) console.error("Assertion failed", ...args);
};
console.count = (label = "default") => {
  const n = (counts.get(String(label)) ?? 0) + 1;
  counts.set(String(label), n);
  console.log(String(label) + ": " + n);
};
console.countReset = (label = "default") => void counts.delete(String(label));
console.time = console.timeEnd = console.timeLog = (label = "default", ...args) => console.debug(String(label), ...args);

function reportUncaught(thrown) {
  for (const run of currentRuns()) emit(run, "error", [describe(thrown), true]);
}
addEventListener("unhandledrejection", (event) => {
  event.preventDefault?.();
  reportUncaught(event.reason);
});
addEventListener("error", (event) => reportUncaught(event.error ?? event.message));

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
    const env = buildEnv(grants, capabilities);
    const run = { sink, id: runId, pending: [], lines: 0, emitted: 0, dropped: 0 };
    activeRuns.add(run);
    try {
      const reply = await runContext.run(run, async () => {
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
      activeRuns.delete(run);
      // Log calls still in flight would be lost once run() returns and the sink is released.
      await Promise.all(run.pending);
      if (run.lines > 0) nativeLog(MARKER + JSON.stringify([runId, "done", run.lines]));
    }
  }
}
`;
}
