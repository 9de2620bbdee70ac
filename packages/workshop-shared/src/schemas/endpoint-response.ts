/**
 * What an agent with `triggers.http.response: "full"` returns: the HTTP response its endpoint answers
 * with. Checked before anything is sent, so a bad one is answered 502 with this schema's sentence.
 */

import * as v from "valibot";
import { MAX_ENDPOINT_HEADER_VALUE_CHARS, MAX_ENDPOINT_RESPONSE_HEADERS } from "../limits.ts";
import { jsonValue } from "./json.ts";
import { strictShape } from "./objects.ts";

const STATUS = '"status" must be a whole number from 200 to 599, like 200 or 404.';
/** An HTTP token (RFC 9110): what a header name may be made of. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,256}$/;
/** Statuses whose responses have no body (a Response with one cannot be made). */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);

/** Header name → value, each sane: a token for the name, one line of text for the value. */
const ResponseHeadersSchema = v.pipe(
  v.custom<Record<string, string>>(
    (value) => typeof value === "object" && value !== null && !Array.isArray(value),
    '"headers" must be an object of header names and text values, like { "content-type": "text/html" }.',
  ),
  v.rawCheck(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const entries = Object.entries(dataset.value as Record<string, unknown>);
    if (entries.length > MAX_ENDPOINT_RESPONSE_HEADERS) {
      addIssue({
        message: `"headers" sets ${entries.length} headers; the limit is ${MAX_ENDPOINT_RESPONSE_HEADERS}.`,
      });
      return;
    }
    for (const [name, value] of entries) {
      const shown = JSON.stringify(name.slice(0, 64));
      if (!HEADER_NAME.test(name)) {
        addIssue({
          message: `Header name ${shown} is not a valid HTTP header name (letters, digits and !#$%&'*+.^_\`|~- only).`,
        });
        return;
      }
      if (typeof value !== "string") {
        addIssue({ message: `Header ${shown} must have a text value, not ${value === null ? "null" : typeof value}.` });
        return;
      }
      if (value.length > MAX_ENDPOINT_HEADER_VALUE_CHARS) {
        addIssue({
          message: `Header ${shown} is ${value.length} characters long; the limit is ${MAX_ENDPOINT_HEADER_VALUE_CHARS}.`,
        });
        return;
      }
      // Line breaks would split the header; NUL and other controls (but tab) are refused by HTTP.
      // biome-ignore lint/suspicious/noControlCharactersInRegex: exactly those are what is refused
      if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) {
        addIssue({ message: `Header ${shown} holds a line break or control character; a value is one line of text.` });
        return;
      }
    }
  }),
);

/** `{ status, headers, body }`: all optional (200, none, no body); a string body is text, any other JSON is JSON. */
export const EndpointResponseSchema = v.pipe(
  strictShape(
    {
      status: v.optional(v.pipe(v.number(STATUS), v.integer(STATUS), v.minValue(200, STATUS), v.maxValue(599, STATUS))),
      headers: v.optional(ResponseHeadersSchema),
      /** A string is sent as it is; any other JSON value as JSON; left out or null, no body. */
      body: v.optional(jsonValue("body")),
    },
    {
      notObject:
        'A "full" endpoint answer must be an object like { "status": 200, "headers": { "content-type": "text/html" }, "body": "<p>Hi</p>" }.',
      unknownKey: (key) =>
        `Unknown field "${key}" in the endpoint answer: the fields are "status", "headers" and "body".`,
    },
  ),
  v.check(
    (answer) => !(NULL_BODY_STATUSES.has(answer.status ?? 200) && answer.body !== undefined && answer.body !== null),
    (issue) =>
      `Status ${(issue.input as { status?: number }).status} has no body: leave "body" out (or answer another status).`,
  ),
);
