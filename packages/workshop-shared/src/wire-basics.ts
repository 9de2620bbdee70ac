/**
 * The few names both the contract (`api.ts`) and the schemas its types are inferred from (`schemas/`)
 * need, kept apart so that neither imports the other back.
 */

/** A JSON-like value: what a gadget receives as payload and returns as result. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** The manifest's file name inside a gadget. */
export const MANIFEST_PATH = "gadget.json";

/** The test file's name inside a gadget. */
export const TESTS_PATH = "gadget.tests.json";

/** The lock of a gadget's npm dependencies: the exact tree it runs, written by the Workshop. */
export const LOCK_PATH = "gadget.lock.json";

/** How a run that did not end `ok` ended. */
export type RunErrorKind = "user" | "timeout" | "cpu" | "memory" | "invalid" | "cancelled" | "busy";
