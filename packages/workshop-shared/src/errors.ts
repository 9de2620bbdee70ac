/**
 * Stable codes on the errors the Workshop throws over RPC (bad calls and missing things; run failures
 * are outcomes, not errors). Clients branch on `code`; the message is for people and may be reworded.
 * Cap'n Web carries an error's own properties, so `code` arrives on the client's Error as sent.
 */
export const ERROR_CODES = [
  /** The token is not a workspace token at all (malformed). */
  "INVALID_TOKEN",
  /** A well-formed token that belongs to no workspace (removed, or never created). */
  "UNKNOWN_TOKEN",
  /** No published agent by that id or name (or no such version). */
  "AGENT_NOT_FOUND",
  /** A share, run record or other id that does not exist (or is malformed: the same answer). */
  "NOT_FOUND",
  /** A call whose arguments are of the wrong shape or out of range. */
  "INVALID_ARGUMENT",
  /** An API key whose scope does not allow this call (or a revoked key's live session). */
  "FORBIDDEN",
  /** Too many calls or misses from this client or connection; wait and retry. */
  "RATE_LIMITED",
  /** A count, size or storage limit of the connection or workspace is reached. */
  "LIMIT_REACHED",
  /** Publishing was refused because the version's test cases failed (or its test file is invalid). */
  "TESTS_FAILED",
  /** Publishing was refused because the endpoint name (`triggers.http.name`) is another agent's or workspace's. */
  "NAME_TAKEN",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

const KNOWN = new Set<string>(ERROR_CODES);

/** Whether `value` is one of the Workshop's error codes. */
export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === "string" && KNOWN.has(value);
}

/** An Error with a stable code, as thrown by the Workshop's RPC targets. */
export function codedError(code: ErrorCode, message: string, Type: ErrorConstructor = Error): Error {
  return Object.assign(new Type(message), { code });
}

/**
 * The Workshop's code on an error caught from an RPC call, or undefined for any other error.
 *
 * @example
 * ```ts
 * try { await client.getSession().listDrafts(); }
 * catch (error) { if (errorCode(error) === "UNKNOWN_TOKEN") startOver(); }
 * ```
 */
export function errorCode(error: unknown): ErrorCode | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  return isErrorCode(code) ? code : undefined;
}
