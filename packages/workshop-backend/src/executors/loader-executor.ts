/**
 * Runs gadgets through the Worker Loader binding: one isolate per (workspace, content hash), no
 * network (`globalOutbound: null`), only the env it is given, and `limits.cpuMs` for the platform to
 * enforce. On Cloudflare that is the whole story; locally workerd enforces no limit, so a deadline here
 * can only end the *wait* for an asynchronous run — synchronous runaway code needs the runner pool.
 */

import { RpcTarget } from "cloudflare:workers";
import type { JsonValue, LogLevel } from "@gadgets/workshop-shared/api";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";
import { HARNESS_ENTRYPOINT } from "../isolate/harness.ts";
import type { ExecuteRequest, ExecuteResult, Executor, IsolateEventSink, RawError } from "./executor.ts";

/** The compatibility date gadget isolates run with; capnweb stubs across RPC need ≥ 2026-01-20. */
export const GADGET_COMPATIBILITY_DATE = "2026-11-01";

/** The sink as an RPC target, so the isolate can call it while the run goes on. */
class SinkTarget extends RpcTarget {
  readonly #sink: IsolateEventSink;
  constructor(sink: IsolateEventSink) {
    super();
    this.#sink = sink;
  }
  log(level: LogLevel, values: EncodedValue[]): void {
    this.#sink.log(level, values);
  }
  error(error: RawError, uncaught: boolean): void {
    this.#sink.error(error, uncaught);
  }
}

type HarnessReply = { status: "ok"; json: string } | { status: "error"; kind: "user" | "invalid"; error: RawError };

interface HarnessEntrypoint {
  run(payload: JsonValue, sink: SinkTarget): Promise<HarnessReply>;
}

export interface LoaderExecutorOptions {
  loader: WorkerLoader;
}

function abortResult(signal: AbortSignal): ExecuteResult {
  const reason: unknown = signal.reason;
  if (reason && typeof reason === "object" && "kind" in reason && "message" in reason) {
    const { kind, message } = reason as { kind: unknown; message: unknown };
    if ((kind === "timeout" || kind === "cancelled" || kind === "cpu" || kind === "memory") && typeof message === "string") {
      return { status: "error", kind, message };
    }
  }
  return { status: "error", kind: "cancelled", message: "The run was cancelled." };
}

export class LoaderExecutor implements Executor {
  readonly #loader: WorkerLoader;

  constructor(options: LoaderExecutorOptions) {
    this.#loader = options.loader;
  }

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const { gadget, limits, signal } = request;
    if (signal.aborted) return abortResult(signal);
    const worker = this.#loader.get(request.isolateKey, () => ({
      compatibilityDate: GADGET_COMPATIBILITY_DATE,
      compatibilityFlags: ["nodejs_als"],
      mainModule: gadget.mainModule,
      modules: gadget.modules,
      env: {},
      globalOutbound: null,
      limits: { cpuMs: limits.cpuMs },
    }));
    const entrypoint = worker.getEntrypoint(HARNESS_ENTRYPOINT) as unknown as HarnessEntrypoint;
    const sink = new SinkTarget(request.sink);

    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ExecuteResult>((resolve) => {
      onAbort = () => resolve(abortResult(signal));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    try {
      const reply = await Promise.race([entrypoint.run(request.payload, sink), aborted]);
      if ("status" in reply && reply.status === "ok" && "json" in reply) return { status: "ok", result: JSON.parse(reply.json) as JsonValue };
      return reply as ExecuteResult;
    } catch (thrown) {
      // The runtime itself failed the call: exceeded CPU on Cloudflare, or the isolate could not load.
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      if (/exceeded CPU|CPU time limit/i.test(message)) {
        return { status: "error", kind: "cpu", message: `The gadget used more than ${limits.cpuMs} ms of CPU time. Look for a loop that does not end or work that can be done in smaller steps.` };
      }
      if (/memory limit|out of memory/i.test(message)) {
        return { status: "error", kind: "memory", message: "The gadget used more memory than its limit. Look for data that grows without bound." };
      }
      return { status: "error", kind: "user", error: { name: thrown instanceof Error ? thrown.name : "Error", message, stack: thrown instanceof Error ? String(thrown.stack ?? "") : "" } };
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
    }
  }
}
