/**
 * One schema per type that crosses the wire into the Workshop; `api.ts` infers those types from them.
 * RPC targets check every argument with `parseArgument` (or `check`, where a bad value is answered as
 * data), so the types and the run-time checks cannot drift apart.
 */

export * from "./api-keys.ts";
export * from "./calls.ts";
export * from "./check.ts";
export * from "./code-mode.ts";
export * from "./endpoint-response.ts";
export * from "./gadget.ts";
export * from "./json.ts";
export * from "./listeners.ts";
export * from "./packages.ts";
export * from "./run-list.ts";
export * from "./schedule-calls.ts";
export * from "./secret-grants.ts";
export * from "./test-file.ts";
export * from "./triggers.ts";
