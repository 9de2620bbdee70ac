import { checkPayload, type JsonValue } from "@gadgets/workshop-shared";

/** The run panel's payload text as a payload: empty is `null`; otherwise JSON, checked as the server will. */
export function parsePayload(text: string): { ok: true; value: JsonValue } | { ok: false; error: string } {
  let value: unknown;
  try {
    value = text.trim() === "" ? null : JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `The payload is not valid JSON: ${(error as Error).message}` };
  }
  return checkPayload(value);
}
