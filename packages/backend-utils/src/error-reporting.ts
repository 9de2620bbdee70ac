/**
 * Error reporting: capture a failure with its context, give it a fingerprint that stays the same when
 * only ids, numbers or quoted values change, and hand it to a sink that aggregates per workspace.
 * Reports never leave the workspace they were captured in: the workspace is part of every report
 * and every sink is scoped by it.
 */

import { type Logger, logger } from "./logger.ts";

export interface ErrorReport {
  workspaceId: string;
  fingerprint: string;
  name: string;
  message: string;
  stack: string;
  context: Record<string, string>;
  at: number;
}

/** Stores reports; the Workshop's sink is the workspace's Durable Object, which upserts by fingerprint. */
export interface ErrorSink {
  record(report: ErrorReport): void | Promise<void>;
}

export interface CapturedError {
  name: string;
  message: string;
  /** Stack text, or frames rendered as `fn (file:line)` lines. */
  stack?: string;
}

const MESSAGE_CHARS = 1000;
const STACK_CHARS = 4000;
const FRAMES_IN_FINGERPRINT = 3;

/** 64-bit FNV-1a as hex: stable, synchronous, good enough to group errors (not for security). */
export function fnv1a64(text: string): string {
  let hash = 0xcbf29ce484222325n;
  const prime = 0x100000001b3n;
  for (let i = 0; i < text.length; i++) {
    hash ^= BigInt(text.charCodeAt(i));
    hash = (hash * prime) & 0xffffffffffffffffn;
  }
  return hash.toString(16).padStart(16, "0");
}

/** Replaces the parts of a message that vary between occurrences of the same bug. */
export function normalizeMessage(message: string): string {
  return message
    .replace(/"[^"]*"|'[^']*'|`[^`]*`/g, "<str>")
    .replace(/\b[0-9a-f]{8,}\b/gi, "<id>")
    .replace(/\b[A-Za-z0-9_-]{20,}\b/g, "<id>")
    .replace(/\d+(\.\d+)?/g, "<n>");
}

/** The top frames of a stack, without line/column noise that shifts with unrelated edits above. */
function stackSignature(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, FRAMES_IN_FINGERPRINT)
    .map((line) => line.trim().replace(/:\d+:\d+\)?$/, ""))
    .join("|");
}

/**
 * @example
 * ```ts
 * fingerprintError({ name: "TypeError", message: "x is undefined at 42" }) // same for "at 43"
 * ```
 */
export function fingerprintError(error: CapturedError): string {
  return fnv1a64(`${error.name}\n${normalizeMessage(error.message)}\n${stackSignature(error.stack ?? "")}`);
}

/** Turns anything thrown into a name/message/stack triple without trusting its getters. */
export function describeThrown(thrown: unknown): CapturedError {
  try {
    if (thrown instanceof Error)
      return { name: String(thrown.name), message: String(thrown.message), stack: String(thrown.stack ?? "") };
    return { name: "NonError", message: String(thrown) };
  } catch {
    return { name: "NonError", message: "an unprintable value was thrown" };
  }
}

export interface ErrorReporter {
  capture(error: CapturedError, context?: Record<string, string>): ErrorReport;
}

/**
 * @example
 * ```ts
 * const reporter = createErrorReporter({ workspaceId, sink, logger });
 * reporter.capture(describeThrown(e), { runId, draftId });
 * ```
 */
export function createErrorReporter(options: {
  workspaceId: string;
  sink: ErrorSink;
  logger?: Logger;
  now?: () => number;
}): ErrorReporter {
  const now = options.now ?? Date.now;
  return {
    capture(error, context = {}) {
      const report: ErrorReport = {
        workspaceId: options.workspaceId,
        fingerprint: fingerprintError(error),
        name: error.name.slice(0, 200),
        message: error.message.slice(0, MESSAGE_CHARS),
        stack: (error.stack ?? "").slice(0, STACK_CHARS),
        context,
        at: now(),
      };
      options.logger?.warn("error captured", {
        workspaceId: report.workspaceId,
        fingerprint: report.fingerprint,
        name: report.name,
        message: report.message,
        ...context,
      });
      // A failing sink must not turn one error into two: the log line above is the fallback record.
      Promise.resolve()
        .then(() => options.sink.record(report))
        .catch((sinkError: unknown) =>
          options.logger?.error("error sink failed", { reason: describeThrown(sinkError).message }),
        );
      return report;
    },
  };
}

/** Aggregates reports in memory by (workspace, fingerprint); for tests and single-process hosts. */
export class MemoryErrorSink implements ErrorSink {
  readonly #groups = new Map<string, { report: ErrorReport; count: number; firstSeen: number }>();

  record(report: ErrorReport): void {
    const key = `${report.workspaceId}\n${report.fingerprint}`;
    const group = this.#groups.get(key);
    if (group) {
      group.count++;
      group.report = report;
    } else {
      this.#groups.set(key, { report, count: 1, firstSeen: report.at });
    }
  }

  /** The groups of one workspace only. */
  groups(workspaceId: string): { fingerprint: string; count: number; firstSeen: number; last: ErrorReport }[] {
    return [...this.#groups.values()]
      .filter((group) => group.report.workspaceId === workspaceId)
      .map((group) => ({
        fingerprint: group.report.fingerprint,
        count: group.count,
        firstSeen: group.firstSeen,
        last: group.report,
      }));
  }
}

/** Where `reportError` keeps its groups: this process's memory (a backend's own failures). */
export const defaultErrorSink = new MemoryErrorSink();

/**
 * Captures anything thrown with the ready `logger` and the in-memory `defaultErrorSink`: one warn line
 * with its fingerprint, and a count per (workspace, fingerprint) in `defaultErrorSink.groups(…)`.
 *
 * @example
 * ```ts
 * import { reportError } from "@gadgets/backend-utils/error-reporting";
 * try { await agent.run(payload); } catch (error) { reportError(error, { agentId }); }
 * ```
 */
export function reportError(thrown: unknown, context: Record<string, string> = {}, workspaceId = "local"): ErrorReport {
  const reporter = createErrorReporter({ workspaceId, sink: defaultErrorSink, logger });
  return reporter.capture(describeThrown(thrown), context);
}
