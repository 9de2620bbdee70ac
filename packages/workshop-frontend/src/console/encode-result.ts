import type { JsonValue } from "@gadgets/workshop-shared";
import type { EncodedValue } from "@gadgets/workshop-shared/console-values";

/** A run's result (JSON) in the console's encoding, so the same inspector shows results and logged values. */
export function encodeResult(value: JsonValue): EncodedValue {
  if (value === null) return { t: "null" };
  if (typeof value === "string") return { t: "string", v: value };
  if (typeof value === "number") return { t: "number", v: value };
  if (typeof value === "boolean") return { t: "boolean", v: value };
  if (Array.isArray(value)) return { t: "array", items: value.map(encodeResult), length: value.length };
  const entries = Object.entries(value).map(([key, item]): [string, EncodedValue] => [key, encodeResult(item)]);
  return { t: "object", ctor: "Object", entries, size: entries.length };
}
