/**
 * A runner's control lines: it writes one to stdout when a run starts and when it ends, so the
 * supervisor (which reads that stdout) watches every run though it carries none. They share
 * the event lines' marker and shape (`<marker>["<runId>","<kind>:<nonce>",data]`); the nonce is the
 * runner's own and gadget code never sees it, so a gadget cannot write one.
 */

import { EVENT_LINE_MARKER } from "./protocol.ts";

export type ControlKind = "start" | "end";

/** How a run ended, as its `end` line says. */
export const END_STATE = { done: 0, hung: 2 } as const;

/** `start`: [leaseId, timeoutMs]; `end`: [event lines written, END_STATE]. */
export function controlLine(nonce: string, runId: string, kind: ControlKind, data: (string | number)[]): string {
  return `${EVENT_LINE_MARKER}${JSON.stringify([runId, `${kind}:${nonce}`, data])}`;
}

/** The body of a line after its run id (`"kind:nonce",data]`) as a control line of this runner, or undefined. */
export function readControl(
  nonce: string,
  body: string,
):
  | { kind: "start"; leaseId: string; timeoutMs: number }
  | { kind: "end"; eventLines: number; hung: boolean }
  | undefined {
  for (const kind of ["start", "end"] as const) {
    const prefix = `"${kind}:${nonce}",`;
    if (!body.startsWith(prefix)) continue;
    let data: unknown;
    try {
      data = JSON.parse(body.slice(prefix.length, -1));
    } catch {
      return undefined;
    }
    if (!Array.isArray(data)) return undefined;
    if (kind === "start") {
      const [leaseId, timeoutMs] = data as unknown[];
      if (typeof leaseId !== "string" || typeof timeoutMs !== "number" || !Number.isFinite(timeoutMs)) return undefined;
      return { kind, leaseId, timeoutMs };
    }
    const [eventLines, state] = data as unknown[];
    return { kind, eventLines: typeof eventLines === "number" ? eventLines : 0, hung: state === END_STATE.hung };
  }
  return undefined;
}
