/**
 * The one rule for how a gadget's fetch URL is written into what the Workshop keeps and shows (span
 * names, `url.path`, the console's trace line), and so into every shared run: the scheme, host and the
 * path's shape stay, anything in the path that could be a secret becomes `{…}`. Webhook and bot URLs
 * carry their secret in the path (Telegram `/bot<token>/sendMessage`, Slack `/services/T…/B…/<secret>`,
 * Discord `/api/webhooks/<id>/<token>`), and a trace is published with its run.
 *
 * A segment (between slashes) is kept only when it reads like something a person named: at most
 * SEGMENT_MAX characters, and every part of it between `-`, `_`, `.` and `~` is
 * - a word: lowercase (`issues`, `hello`, with at most two digits, as in `v1` or `oauth2`), Capitalized or
 *   camelCase (`World`, `sendMessage`), or capitals up to eight letters (`API`); or
 * - a number of at most six digits (`42`, `2024`).
 * Anything else — longer, mixed-case noise, hex, base64, uuids, `:` or `%` escapes — is masked. Random
 * tokens almost never pass (digits or irregular capitals give them away); a secret that reads like a
 * word would, which is why secrets belong in headers, which traces never keep.
 */

import type { RunEvent, RunTrace } from "@gadgets/workshop-shared/api";

/** Longer segments are masked whatever they look like: uuids (36), hashes, JWTs, long tokens. */
const SEGMENT_MAX = 32;
/** What a masked segment reads as: the shape of the path stays visible. */
export const MASKED_SEGMENT = "{…}";

const NUMBER = /^[0-9]{1,6}$/;
const CAPITALS = /^[A-Z]{1,8}$/;
/** Lowercase, Capitalized or camelCase: every capital starts a run of lowercase letters. */
const CASED_WORD = /^[A-Za-z][a-z]*(?:[A-Z][a-z]+)*$/;
const LOWER_ALNUM = /^[a-z0-9]+$/;

function isWordPart(part: string): boolean {
  if (part === "" || NUMBER.test(part) || CAPITALS.test(part) || CASED_WORD.test(part)) return true;
  if (!LOWER_ALNUM.test(part)) return false;
  let digits = 0;
  for (const char of part) if (char >= "0" && char <= "9") digits++;
  return digits <= 2;
}

/** Whether a path segment is kept as written (see the rule above). */
export function isReadableSegment(segment: string): boolean {
  return segment.length <= SEGMENT_MAX && segment.split(/[-_.~]/).every(isWordPart);
}

/** A URL path with every segment that could be a secret replaced by `{…}`; slashes stay where they are. */
export function pathShape(path: string): string {
  return path
    .split("/")
    .map((segment) => (isReadableSegment(segment) ? segment : MASKED_SEGMENT))
    .join("/");
}

/**
 * A fetch URL as the Workshop writes it down: origin (no credentials), the path's shape, `?…` when there
 * was a query (its values may be keys), never the fragment. Undefined for text that is not a URL.
 */
export function urlShape(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return undefined;
  }
  return `${url.origin}${pathShape(url.pathname)}${url.search ? "?…" : ""}`;
}

/**
 * A fetch's trace line or span name (`GET <url>`, then ` → 200, 12 bytes` or ` — why it failed`) with its
 * URL shaped. Shaping is idempotent, so lines that were shaped when recorded come back unchanged.
 */
export function fetchLineShape(line: string): string {
  const start = line.indexOf(" ") + 1;
  if (start === 0) return line;
  const end = line.indexOf(" ", start);
  const target = end === -1 ? line.slice(start) : line.slice(start, end);
  const shaped = urlShape(target);
  return shaped === undefined ? line : `${line.slice(0, start)}${shaped}${end === -1 ? "" : line.slice(end)}`;
}

/**
 * The fetches of a recorded run shaped again, for a record about to be shared: runs recorded before
 * the rule existed kept their whole paths, and a share must not publish them.
 */
export function shapeRecordedFetches(
  events: readonly RunEvent[],
  trace: RunTrace | undefined,
): { events: RunEvent[]; trace: RunTrace | undefined } {
  return {
    events: events.map((event) =>
      event.type === "trace" && event.capability === "fetch"
        ? { ...event, summary: fetchLineShape(event.summary) }
        : event,
    ),
    trace: trace && {
      ...trace,
      spans: trace.spans.map((span) => {
        if (span.kind !== "fetch") return span;
        const path = span.attributes["url.path"];
        return {
          ...span,
          name: fetchLineShape(span.name),
          attributes: { ...span.attributes, ...(typeof path === "string" ? { "url.path": pathShape(path) } : {}) },
        };
      }),
    },
  };
}
