/**
 * Error codes across the Durable Object boundary. Workers RPC carries an error's message but not its own
 * properties, so an error thrown in a workspace's Durable Object would reach the client without its
 * `code`. The object throws `storeError` (the code written before the message), and every stub the
 * Worker makes of it (`codedStub`) turns that back into a coded error with the plain message: clients,
 * MCP and gadgets see the message alone, and `errorCode()` works as for errors thrown in the Worker.
 */

import { codedError, type ErrorCode, isErrorCode } from "@gadgets/workshop-shared/errors";

const TAGGED = /^\[([A-Z_]+)\] /;

/** An error for a caller in the Worker: its code survives the trip (see codedStub). */
export function storeError(code: ErrorCode, message: string): Error {
  return new Error(`[${code}] ${message}`);
}

/** The coded error a tagged one stands for; any other error as it is. */
export function untagged(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  const tag = TAGGED.exec(error.message);
  if (!tag || !isErrorCode(tag[1])) return error;
  return codedError(tag[1], error.message.slice(tag[0].length));
}

/** `stub` with every method's rejection untagged. */
export function codedStub<T extends object>(stub: T): T {
  return new Proxy(stub, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof property !== "string" || typeof value !== "function") return value;
      // Reflect.apply: a stub's method is itself a stub, whose `apply` would be a remote call.
      const method = value as (...args: unknown[]) => unknown;
      return (...args: unknown[]) =>
        Promise.resolve(Reflect.apply(method, target, args) as unknown).catch((error: unknown) => {
          throw untagged(error);
        });
    },
  });
}
