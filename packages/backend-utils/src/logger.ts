/**
 * Structured logs: one JSON object per line, so a run's line can be searched and aggregated by any
 * log pipeline (`wrangler tail`, Workers Logs, a file). Long values are cut so one huge payload cannot
 * flood the log.
 */

export type LogFields = Record<string, unknown>;
export type LogSeverity = "debug" | "info" | "warn" | "error";

export interface Logger {
  debug(message: string, fields?: LogFields): void;
  info(message: string, fields?: LogFields): void;
  warn(message: string, fields?: LogFields): void;
  error(message: string, fields?: LogFields): void;
  /** A logger whose lines all carry `fields` too. */
  child(fields: LogFields): Logger;
}

/** Where lines go; the default writes to the console, which Workers and Node both collect. */
export type LogWriter = (line: string) => void;

/** Characters kept of any one string field. */
export const MAX_FIELD_CHARS = 500;

/**
 * Shortens a value for a log line: strings are cut, objects are serialized and cut.
 *
 * @example
 * ```ts
 * truncateForLog("x".repeat(1000), 10) // "xxxxxxxxxx…(990 more)"
 * ```
 */
export function truncateForLog(value: unknown, max = MAX_FIELD_CHARS): unknown {
  if (typeof value === "string")
    return value.length > max ? `${value.slice(0, max)}…(${value.length - max} more)` : value;
  if (value === null || typeof value !== "object") return value;
  let text: string;
  try {
    text = JSON.stringify(value) ?? String(value);
  } catch {
    text = "[unserializable]";
  }
  return text.length > max ? `${text.slice(0, max)}…(${text.length - max} more)` : value;
}

/**
 * @example
 * ```ts
 * const log = createLogger({ service: "workshop" });
 * log.info("run", { runId, outcome: "ok", durationMs: 3 });
 * // {"time":"…","level":"info","msg":"run","service":"workshop","runId":"…","outcome":"ok","durationMs":3}
 * ```
 */
export function createLogger(
  bindings: LogFields = {},
  write: LogWriter = (line) => console.log(line),
  minLevel: LogSeverity = "debug",
): Logger {
  const threshold = SEVERITY_RANK[minLevel];
  function emit(level: LogSeverity, message: string, fields: LogFields = {}): void {
    if (SEVERITY_RANK[level] < threshold) return;
    const record: LogFields = { time: new Date().toISOString(), level, msg: message };
    for (const [key, value] of Object.entries({ ...bindings, ...fields })) record[key] = truncateForLog(value);
    let line: string;
    try {
      line = JSON.stringify(record);
    } catch {
      line = JSON.stringify({ time: record.time, level, msg: message, note: "fields were not serializable" });
    }
    write(line);
  }
  return {
    debug: (message, fields) => emit("debug", message, fields),
    info: (message, fields) => emit("info", message, fields),
    warn: (message, fields) => emit("warn", message, fields),
    error: (message, fields) => emit("error", message, fields),
    child: (fields) => createLogger({ ...bindings, ...fields }, write, minLevel),
  };
}

const SEVERITY_RANK: Record<LogSeverity, number> = { debug: 0, info: 1, warn: 2, error: 3 };

/** The level named by `LOG_LEVEL` (debug, info, warn, error; any case), else `info`. */
export function levelFromEnvironment(value: string | undefined): LogSeverity {
  const level = value?.trim().toLowerCase();
  return level !== undefined && Object.hasOwn(SEVERITY_RANK, level) ? (level as LogSeverity) : "info";
}

function environmentLevel(): LogSeverity {
  // Workers have no `process` unless Node compatibility is on; read it without assuming it.
  const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env;
  return levelFromEnvironment(env?.LOG_LEVEL);
}

/**
 * A ready logger: JSON lines on stdout (the console in Workers), lines below `LOG_LEVEL` dropped.
 *
 * @example
 * ```ts
 * import { logger } from "@gadgets/backend-utils/logger";
 * logger.info("Agent executed", { agentId, result });
 * ```
 */
export const logger: Logger = createLogger({}, (line) => console.log(line), environmentLevel());
