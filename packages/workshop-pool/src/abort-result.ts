import type { ExecuteResult } from "./protocol.ts";

/** The result of a run stopped through its AbortSignal; the reason says why (timeout, cancel…). */
export function abortResult(signal: AbortSignal): ExecuteResult {
  const reason: unknown = signal.reason;
  if (reason && typeof reason === "object" && "kind" in reason && "message" in reason) {
    const { kind, message } = reason as { kind: unknown; message: unknown };
    if (
      (kind === "timeout" || kind === "cancelled" || kind === "cpu" || kind === "memory") &&
      typeof message === "string"
    ) {
      return { status: "error", kind, message };
    }
  }
  return { status: "error", kind: "cancelled", message: "The run was cancelled." };
}
