/**
 * `gadget.lock.json` as text: written with sorted keys, two-space indentation and a trailing newline,
 * so the same tree is always the same bytes (a lock that did not change makes no diff); read back
 * through the contract's schema.
 */

import type { GadgetLock } from "@gadgets/workshop-shared/api";
import { check, GadgetLockSchema } from "@gadgets/workshop-shared/schemas";
import { PackageError } from "./package-error.ts";

function sorted(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sorted);
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) out[key] = sorted((value as Record<string, unknown>)[key]);
  return out;
}

export function lockText(lock: GadgetLock): string {
  return `${JSON.stringify(sorted(lock), null, 2)}\n`;
}

/** The lock in `text`, or a PackageError ("invalid") that says what is wrong with it. */
export function parseLock(text: string): GadgetLock {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PackageError("invalid", "gadget.lock.json is not JSON. Delete it and resolve the dependencies again.");
  }
  const checked = check(GadgetLockSchema, json);
  if (!checked.ok)
    throw new PackageError("invalid", `gadget.lock.json is not a lock: ${checked.error} Delete it and resolve again.`);
  return checked.value;
}
