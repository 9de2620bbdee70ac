/**
 * Runs gadgets through the Worker Loader binding: one isolate per (workspace, content hash), no
 * network (`globalOutbound: null`), only the env it is given, and `limits.cpuMs` for the platform to
 * enforce. On Cloudflare that is the whole story; locally workerd enforces no limit, so a deadline here
 * can only end the *wait* for an asynchronous run — synchronous runaway code needs the runner pool.
 * A call whose run was ended (cancelled, past its deadline) is not stopped by that, so it is counted
 * until it settles (`lingering`): the platform bounds the isolate calls in flight per request.
 */

import { HARNESS_ENTRYPOINT, type HarnessEntrypoint } from "../isolate/harness/contract.ts";
import { abortResult } from "@gadgets/workshop-pool/abort-result";
import { COMPATIBILITY_DATE, ISOLATE_COMPATIBILITY_FLAGS } from "../compatibility.ts";
import type { CodeCache } from "./code-cache.ts";
import { readHarnessReply } from "./harness-reply.ts";
import { type ExecuteReply, type ExecuteRequest, type ExecuteResult, type Executor, hasGrants } from "./executor.ts";
import { CapabilityTarget, SinkTarget } from "@gadgets/workshop-pool/sink-target";

/** workerd's words when every promise of a request is pending with nothing left that could settle one. */
const HUNG = /code had hung and would never generate a response/;

function untilAborted(signal: AbortSignal): Promise<ExecuteResult> {
  if (signal.aborted) return Promise.resolve(abortResult(signal));
  return new Promise((resolve) => signal.addEventListener("abort", () => resolve(abortResult(signal)), { once: true }));
}

export interface LoaderExecutorOptions {
  loader: WorkerLoader;
  /**
   * How the isolate reports events: `rpc` calls the request's sink; `stdout` writes event lines to
   * the process's stdout for a supervisor to read (the local runner pool), so output written just
   * before a synchronous loop still gets out. With `stdout`, the request's sink is not called.
   */
  eventChannel?: "rpc" | "stdout";
  /**
   * Code received from another process, by content hash, so a job may name its code by hash alone (a
   * runner's). In the Worker itself every job carries its modules, which the build cache holds already.
   */
  codeCache?: CodeCache;
}

export class LoaderExecutor implements Executor {
  readonly #loader: WorkerLoader;
  readonly #channel: "rpc" | "stdout";
  readonly #codeCache: CodeCache | undefined;
  #lingering = 0;

  constructor(options: LoaderExecutorOptions) {
    this.#loader = options.loader;
    this.#channel = options.eventChannel ?? "rpc";
    this.#codeCache = options.codeCache;
  }

  async execute(request: ExecuteRequest): Promise<ExecuteResult> {
    const reply = await this.executeJob(request);
    // Ended at the run's deadline like any other run that never settles, not as the runtime's error.
    if (reply.status === "hung") return untilAborted(request.signal);
    if (reply.status === "missing-code")
      return {
        status: "error",
        kind: "invalid",
        error: { name: "MissingCode", message: "The gadget's code was not sent with the run.", stack: "" },
      };
    const { eventLines: _lines, ...result } = reply;
    return result;
  }

  /** Isolate calls still in flight whose runs have already been answered as ended. */
  lingering(): number {
    return this.#lingering;
  }

  /** Counts `call` until it settles: its run was answered without it. */
  #outlive(call: Promise<unknown>): void {
    this.#lingering++;
    const settle = () => {
      this.#lingering--;
    };
    call.then(settle, settle);
  }

  /** Whether a job referencing `hash` only would find its code here. */
  hasCode(hash: string): boolean {
    return this.#codeCache?.has(hash) ?? false;
  }

  /** Runs a job whose code may be referenced by hash only (see GadgetCode). */
  async executeJob(request: ExecuteRequest): Promise<ExecuteReply> {
    const { gadget, limits, signal } = request;
    if (signal.aborted) return abortResult(signal);
    if (gadget.modules) this.#codeCache?.set(gadget.hash, gadget.modules);
    const modules = gadget.modules ?? this.#codeCache?.get(gadget.hash);
    if (!modules) return { status: "missing-code" };
    const worker = this.#loader.get(request.isolateKey, () => ({
      compatibilityDate: COMPATIBILITY_DATE,
      compatibilityFlags: [...ISOLATE_COMPATIBILITY_FLAGS],
      mainModule: gadget.mainModule,
      modules,
      env: {},
      globalOutbound: null,
      limits: { cpuMs: limits.cpuMs },
    }));
    const entrypoint = worker.getEntrypoint(HARNESS_ENTRYPOINT) as unknown as HarnessEntrypoint;
    const sink = this.#channel === "rpc" ? new SinkTarget(request.sink) : null;
    request.sink.started();

    let onAbort: (() => void) | undefined;
    const aborted = new Promise<ExecuteReply>((resolve) => {
      onAbort = () => resolve(abortResult(signal));
      signal.addEventListener("abort", onAbort, { once: true });
    });
    let settled = false;
    const call = entrypoint
      .run(
        request.payload,
        sink,
        request.runId,
        request.grants,
        // The harness builds env from the grants alone: with none, nothing could call out.
        hasGrants(request.grants) ? new CapabilityTarget(request.capabilities) : null,
        request.secrets ?? null,
      )
      .finally(() => {
        settled = true;
      });
    try {
      return await Promise.race([call.then(readHarnessReply), aborted]);
    } catch (thrown) {
      // The runtime itself failed the call: exceeded CPU on Cloudflare, or the isolate could not load.
      const message = thrown instanceof Error ? thrown.message : String(thrown);
      if (HUNG.test(message)) return { status: "hung" };
      if (/exceeded CPU|CPU time limit/i.test(message)) {
        return {
          status: "error",
          kind: "cpu",
          message: `The gadget used more than ${limits.cpuMs} ms of CPU time. Look for a loop that does not end or work that can be done in smaller steps.`,
        };
      }
      if (/memory limit|out of memory/i.test(message)) {
        return {
          status: "error",
          kind: "memory",
          message: "The gadget used more memory than its limit. Look for data that grows without bound.",
        };
      }
      return {
        status: "error",
        kind: "user",
        error: {
          name: thrown instanceof Error ? thrown.name : "Error",
          message,
          stack: thrown instanceof Error ? String(thrown.stack ?? "") : "",
        },
      };
    } finally {
      if (onAbort) signal.removeEventListener("abort", onAbort);
      if (!settled) this.#outlive(call);
    }
  }
}
