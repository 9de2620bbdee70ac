import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { DROPPED_TALLY_EVERY, MAX_EVENT_BYTES_PER_RUN, MAX_EVENTS_PER_RUN } from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import type { RawError } from "../../executors/executor.ts";
import { EVENT_LINE_MARKER, type RunSink } from "./contract.ts";
import { createEventChannel } from "./event-channel.ts";
import { newRunState } from "./run-state.ts";
import { withPlanted } from "./testing/planted.ts";

/** A sink as the isolate sees one over RPC: every call answers with a promise. */
class RecordingSink implements RunSink {
  readonly calls: unknown[][] = [];
  fail = false;
  #answer(call: unknown[]): Promise<void> {
    this.calls.push(call);
    return this.fail ? Promise.reject(new Error("sink gone")) : Promise.resolve();
  }
  log(level: LogLevel, values: EncodedValue[], layout?: LogLayout) {
    return this.#answer(layout ? ["log", level, values, layout] : ["log", level, values]);
  }
  error(error: RawError, uncaught: boolean) {
    return this.#answer(["error", error, uncaught]);
  }
  dropped(total: number) {
    return this.#answer(["dropped", total]);
  }
}

function overStdout() {
  const lines: string[] = [];
  const channel = createEventChannel((line) => void lines.push(line));
  const parsed = () => lines.map((line) => JSON.parse(line.slice(EVENT_LINE_MARKER.length)));
  return { channel, lines, parsed, run: newRunState("r1", null) };
}

function overSink() {
  const sink = new RecordingSink();
  const lines: string[] = [];
  const channel = createEventChannel((line) => void lines.push(line));
  return { channel, sink, lines, run: newRunState("r1", sink) };
}

describe("createEventChannel over RPC", () => {
  it("passes a line's layout to the sink, and only when it has one", () => {
    const { channel, sink, run } = overSink();
    channel.log(run, "log", [{ a: 1 }], { depth: 2, table: { columns: ["a"] } });
    channel.log(run, "log", ["plain"]);
    expect(sink.calls.map((call) => call.length)).toEqual([4, 3]);
    expect(sink.calls[0]?.[3]).toEqual({ depth: 2, table: { columns: ["a"] } });
  });

  it("sends encoded console values to the sink and writes nothing to stdout", async () => {
    const { channel, sink, lines, run } = overSink();
    channel.log(run, "warn", ["hi", 1]);
    expect(sink.calls).toEqual([
      [
        "log",
        "warn",
        [
          { t: "string", v: "hi" },
          { t: "number", v: 1 },
        ],
      ],
    ]);
    expect(run.pending).toHaveLength(1);
    channel.finish(run);
    expect(lines).toEqual([]);
  });

  it("keeps each call's promise, and a failed call rejects nothing", async () => {
    const { channel, sink, run } = overSink();
    sink.fail = true;
    channel.log(run, "log", ["a"]);
    channel.emit(run, { kind: "error", data: [{ name: "E", message: "m", stack: "" }, true] });
    await expect(Promise.all(run.pending)).resolves.toEqual([undefined, undefined]);
  });

  it(`sends ${MAX_EVENTS_PER_RUN} calls, then counts: the first drop and every ${DROPPED_TALLY_EVERY}th are reported`, () => {
    const { channel, sink, run } = overSink();
    for (let i = 0; i < MAX_EVENTS_PER_RUN + DROPPED_TALLY_EVERY; i++) channel.log(run, "log", [i]);
    const logs = sink.calls.filter((call) => call[0] === "log");
    expect(logs).toHaveLength(MAX_EVENTS_PER_RUN);
    expect(sink.calls.filter((call) => call[0] === "dropped")).toEqual([
      ["dropped", 1],
      ["dropped", DROPPED_TALLY_EVERY],
    ]);
    expect(run.dropped).toBe(DROPPED_TALLY_EVERY);
  });

  it("sends an uncaught error even past the cap", () => {
    const { channel, sink, run } = overSink();
    run.emitted = MAX_EVENTS_PER_RUN;
    channel.emit(run, { kind: "error", data: [{ name: "E", message: "m", stack: "s" }, true] });
    expect(sink.calls).toEqual([["error", { name: "E", message: "m", stack: "s" }, true]]);
  });
});

describe("createEventChannel over stdout", () => {
  it("adds a line's layout after its values, and only when it has one", () => {
    const { channel, parsed, run } = overStdout();
    channel.log(run, "log", ["g"], { group: "open" });
    channel.log(run, "log", ["in"], { depth: 1 });
    channel.log(run, "log", ["top"]);
    expect(parsed()).toEqual([
      ["r1", "log", ["log", [{ t: "string", v: "g" }], { group: "open" }]],
      ["r1", "log", ["log", [{ t: "string", v: "in" }], { depth: 1 }]],
      ["r1", "log", ["log", [{ t: "string", v: "top" }]]],
    ]);
  });

  it("writes marked lines [runId, kind, data], counting lines and bytes, and a done line at the end", () => {
    const { channel, lines, parsed, run } = overStdout();
    channel.log(run, "info", ["hi"]);
    channel.emit(run, { kind: "error", data: [{ name: "E", message: "m", stack: "" }, true] });
    expect(lines.every((line) => line.startsWith(EVENT_LINE_MARKER))).toBe(true);
    expect(run.lines).toBe(2);
    expect(run.bytes).toBe(lines.reduce((sum, line) => sum + line.length - EVENT_LINE_MARKER.length, 0));
    channel.finish(run);
    expect(parsed()).toEqual([
      ["r1", "log", ["info", [{ t: "string", v: "hi" }]]],
      ["r1", "error", [{ name: "E", message: "m", stack: "" }, true]],
      ["r1", "done", 2],
    ]);
  });

  it("writes no done line for a run that wrote nothing", () => {
    const { channel, lines, run } = overStdout();
    channel.finish(run);
    expect(lines).toEqual([]);
  });

  it(`sends while under ${MAX_EVENT_BYTES_PER_RUN} bytes of event text and counts calls once there`, () => {
    const { channel, parsed, run } = overStdout();
    run.bytes = MAX_EVENT_BYTES_PER_RUN - 1;
    channel.log(run, "log", ["last"]);
    channel.log(run, "log", ["dropped"]);
    expect(parsed()).toEqual([
      ["r1", "log", ["log", [{ t: "string", v: "last" }]]],
      ["r1", "dropped", [1]],
    ]);
  });

  it("encodes what cannot be printed as data, never throwing into the gadget", () => {
    const { channel, parsed, run } = overStdout();
    const hostile = new Proxy(
      {},
      {
        ownKeys() {
          throw new Error("no keys");
        },
      },
    );
    channel.log(run, "log", [hostile]);
    expect(parsed()[0]).toEqual(["r1", "log", ["log", [{ t: "unreadable", reason: "Error: no keys" }]]]);
  });

  it("writes the same lines whatever toJSON the gadget put on Array, Object or String", () => {
    const write = () => {
      const { channel, lines, run } = overStdout();
      run.emitted = MAX_EVENTS_PER_RUN - 2;
      channel.log(run, "log", ["text", 1, { a: [true, null] }], { depth: 1, table: { columns: ["a"] } });
      channel.emit(run, { kind: "error", data: [{ name: "E", message: "m", stack: "at x" }, true] });
      channel.log(run, "log", ["dropped"]);
      channel.finish(run);
      return lines;
    };
    const honest = write();
    // As a gadget would: the outermost array of each of this run's lines becomes another run's tally.
    function forge(this: unknown) {
      return Array.isArray(this) && this[0] === "r1" ? ["r2", "dropped", [999_999_999]] : this;
    }
    const forged = { value: forge, writable: true };
    const planted = withPlanted(
      [
        [Array.prototype, "toJSON", forged],
        [Object.prototype, "toJSON", forged],
        [String.prototype, "toJSON", forged],
      ],
      write,
    );
    expect(planted).toEqual(honest);
    expect(honest.map((line) => JSON.parse(line.slice(EVENT_LINE_MARKER.length))[1])).toEqual([
      "log",
      "error",
      "dropped",
      "done",
    ]);
  });
});
