import { RpcTarget } from "capnweb";
import type { LogLayout, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import type { CapabilityCall, CapabilityHandler, CapabilityReply, IsolateEventSink, RawError } from "./protocol.ts";

/**
 * An event sink as an RPC target, so the isolate's harness can call it (Workers RPC) while the run goes
 * on: what the harness calls (`RunSink`); `started` is the executor's own. On Workers, capnweb's RpcTarget is the runtime's.
 */
export class SinkTarget extends RpcTarget implements Pick<IsolateEventSink, "log" | "error" | "dropped"> {
  readonly #sink: IsolateEventSink;

  constructor(sink: IsolateEventSink) {
    super();
    this.#sink = sink;
  }

  log(level: LogLevel, values: EncodedValue[], layout?: LogLayout): void {
    this.#sink.log(level, values, layout);
  }

  error(error: RawError, uncaught: boolean): void {
    this.#sink.error(error, uncaught);
  }

  dropped(total: number): void {
    this.#sink.dropped(total);
  }
}

const NO_CAPABILITIES: CapabilityHandler = {
  call: async () => ({ ok: false, error: "This run has no capabilities." }),
};

/** A run's capability handler as an RPC target, callable from the isolate (or another process). */
export class CapabilityTarget extends RpcTarget implements CapabilityHandler {
  readonly #handler: CapabilityHandler;
  /** Calls received: a run that made one has started, whatever else is known of it. */
  #calls = 0;

  constructor(handler: CapabilityHandler | undefined) {
    super();
    this.#handler = handler ?? NO_CAPABILITIES;
  }

  get calls(): number {
    return this.#calls;
  }

  call(call: CapabilityCall): Promise<CapabilityReply> {
    this.#calls++;
    return this.#handler.call(call);
  }
}
