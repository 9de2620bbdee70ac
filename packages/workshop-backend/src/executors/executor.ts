/**
 * An Executor runs one built gadget in a sandbox and reports how it went as data. The overseer owns
 * validation, building, event numbering and records; an executor only executes. Two kinds plug in:
 * the Worker Loader executor (isolates in this workerd, limits enforced by the platform on Cloudflare)
 * and a supervised runner pool for local runs that must survive runaway code.
 */

import type { CapabilityHandler, ExecuteJob, ExecuteResult, IsolateEventSink } from "@gadgets/workshop-pool/protocol";

export interface BuiltGadget {
  /** Content hash of the gadget's files and the harness: equal code, equal hash. */
  hash: string;
  mainModule: string;
  modules: Record<string, string>;
}

export type {
  CapabilityCall,
  CapabilityHandler,
  CapabilityReply,
  ExecuteJob,
  ExecuteReply,
  ExecuteResult,
  GadgetCode,
  IsolateEvent,
  IsolateEventSink,
  RawError,
} from "@gadgets/workshop-pool/protocol";
export { hasGrants } from "@gadgets/workshop-pool/protocol";

export interface ExecuteRequest extends ExecuteJob {
  sink: IsolateEventSink;
  /** Performs the run's capability calls; absent, every call is refused. */
  capabilities?: CapabilityHandler;
  /** Aborted when the run is cancelled or its deadline passes; the executor stops the code if it can. */
  signal: AbortSignal;
}

export interface Executor {
  execute(request: ExecuteRequest): Promise<ExecuteResult>;
  /**
   * A run is likely soon (a session or a shared link just opened): set up what the first run would
   * otherwise wait for. Optional, and never fails.
   */
  prepare?(): void;
  /**
   * Calls still in flight for runs already answered as ended, where the executor cannot stop them (a
   * Worker Loader isolate awaiting something): they count against the connection's run slots.
   */
  lingering?(): number;
}
