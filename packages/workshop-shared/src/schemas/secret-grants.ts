/**
 * How a manifest grants secrets: by name as `env.secrets.NAME` (`grants.secrets`), or only into the
 * headers of fetches to one host (`grants.fetch.headers`), so the gadget never sees the value.
 */

import * as v from "valibot";
import { MAX_INJECTED_HEADERS_PER_HOST, MAX_SECRET_GRANTS } from "../limits.ts";
import { boundedList } from "./objects.ts";

const SECRET_NAME =
  'A secret\'s name is 1 to 64 upper-case letters, digits and "_", starting with a letter or "_", like "GITHUB_TOKEN".';

/** A secret's name, as set, granted and read (`env.secrets.GITHUB_TOKEN`). */
export const SecretNameSchema = v.pipe(v.string(SECRET_NAME), v.regex(/^[A-Z_][A-Z0-9_]{0,63}$/, SECRET_NAME));

/** `grants.secrets`: the names `env.secrets` holds. */
export const SecretGrantsSchema = boundedList(SecretNameSchema, MAX_SECRET_GRANTS, {
  notList: '"grants.secrets" must be a list of secret names like ["GITHUB_TOKEN"].',
  tooLong: (length) => `"grants.secrets" lists ${length} names; the limit is ${MAX_SECRET_GRANTS}.`,
});

const HEADERS =
  '"grants.fetch.headers" must map a granted host to headers, like { "api.github.com": { "Authorization": "Bearer {{GITHUB_TOKEN}}" } }.';

/** Headers for one host: name → template with `{{SECRET}}` placeholders. */
export const InjectedHeadersSchema = v.pipe(
  v.record(v.string(HEADERS), v.string(HEADERS), HEADERS),
  v.check(
    (headers) => Object.keys(headers).length <= MAX_INJECTED_HEADERS_PER_HOST,
    `A host gets at most ${MAX_INJECTED_HEADERS_PER_HOST} injected headers.`,
  ),
);

/** `grants.fetch.headers`: host → headers the gatekeeper adds to that host's requests. */
export const FetchHeaderGrantsSchema = v.record(v.string(HEADERS), InjectedHeadersSchema, HEADERS);
