/**
 * How a manifest grants secrets: by name as `env.secrets.NAME` (`grants.secrets`), or only into the
 * headers of fetches to one host (`grants.fetch.headers`), so the gadget never sees the value.
 */

import * as v from "valibot";
import { MAX_INJECTED_HEADERS_PER_HOST, MAX_SECRET_BYTES, MAX_SECRET_GRANTS, MIN_SECRET_BYTES } from "../limits.ts";
import { byteLength } from "./json.ts";
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

const SECRET_VALUE = `A secret's value is ${MIN_SECRET_BYTES} to ${MAX_SECRET_BYTES} bytes of text (UTF-8)`;

/**
 * A secret's value as `setSecret` takes it. Shorter than MIN_SECRET_BYTES is refused rather than left
 * unredacted: every value set is then redacted wherever it appears (see limits.ts).
 */
export const SecretValueSchema = v.pipe(
  v.string(`${SECRET_VALUE}.`),
  v.check(
    (value) => byteLength(value) >= MIN_SECRET_BYTES,
    (issue) => `${SECRET_VALUE}; this one is ${byteLength(String(issue.input))}.`,
  ),
  v.check(
    (value) => byteLength(value) <= MAX_SECRET_BYTES,
    (issue) => `${SECRET_VALUE}; this one is ${byteLength(String(issue.input))}.`,
  ),
  // Sealed as UTF-8, a lone surrogate would come back as U+FFFD: a token that silently stops working.
  v.check(
    (value) => !/\p{Cs}/u.test(value),
    "A secret's value must be well-formed text: it has half of a surrogate pair (a character cut in two).",
  ),
);

const HEADERS =
  '"grants.fetch.headers" must map a granted host to headers, like { "api.github.com": { "Authorization": "Bearer {{GITHUB_TOKEN}}" } }.';

/**
 * The `{{NAME}}` placeholders of a header template, in order (repeats kept), or the first problem: a
 * placeholder that is not a secret's name, or a `{{` left open. Read in one pass, no regex over the text.
 */
export function templatePlaceholders(template: string): { ok: true; names: string[] } | { ok: false; error: string } {
  const names: string[] = [];
  for (let at = template.indexOf("{{"); at !== -1; at = template.indexOf("{{", at)) {
    const end = template.indexOf("}}", at + 2);
    if (end === -1) return { ok: false, error: `a "{{" in ${JSON.stringify(template.slice(0, 80))} is never closed` };
    const name = template.slice(at + 2, end);
    if (!v.safeParse(SecretNameSchema, name).success)
      return { ok: false, error: `{{${name.slice(0, 70)}}} is not a secret's name. ${SECRET_NAME}` };
    names.push(name);
    at = end + 2;
  }
  return { ok: true, names };
}

/** The template with each `{{NAME}}` replaced by `values[NAME]`, or the first name that has no value. */
export function fillTemplate(
  template: string,
  values: ReadonlyMap<string, string>,
): { ok: true; value: string } | { ok: false; missing: string } {
  let out = "";
  let from = 0;
  for (let at = template.indexOf("{{"); at !== -1; at = template.indexOf("{{", from)) {
    const end = template.indexOf("}}", at + 2);
    if (end === -1) break;
    const name = template.slice(at + 2, end);
    const value = values.get(name);
    if (value === undefined) return { ok: false, missing: name };
    out += template.slice(from, at) + value;
    from = end + 2;
  }
  return { ok: true, value: out + template.slice(from) };
}

/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,64}$/;

/** Headers for one host: name → template with `{{SECRET}}` placeholders. */
export const InjectedHeadersSchema = v.pipe(
  v.record(v.string(HEADERS), v.string(HEADERS), HEADERS),
  v.check(
    (headers) => Object.keys(headers).length <= MAX_INJECTED_HEADERS_PER_HOST,
    `A host gets at most ${MAX_INJECTED_HEADERS_PER_HOST} injected headers.`,
  ),
  v.rawCheck<Record<string, string>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    for (const [name, template] of Object.entries(dataset.value)) {
      if (!HEADER_NAME.test(name)) {
        addIssue({ message: `"grants.fetch.headers": ${JSON.stringify(name.slice(0, 70))} is not a header name.` });
        return;
      }
      // A line break would let a template (or a secret's value) start another header.
      if (/[\r\n\0]/.test(template)) {
        addIssue({ message: `"grants.fetch.headers": the ${name} header's template has a line break.` });
        return;
      }
      const placeholders = templatePlaceholders(template);
      if (!placeholders.ok) {
        addIssue({ message: `"grants.fetch.headers": in the ${name} header, ${placeholders.error}` });
        return;
      }
    }
  }),
);

/** `grants.fetch.headers`: host → headers the gatekeeper adds to that host's requests. */
export const FetchHeaderGrantsSchema = v.record(v.string(HEADERS), InjectedHeadersSchema, HEADERS);

/**
 * Every secret name a manifest's grants use: those `env.secrets` holds (`inEnv`), and those only its
 * fetch header templates name (`inHeaders`, without the ones already in `inEnv`). A run is given these
 * and no others; `listSecrets` names the agents that use each.
 */
export function grantedSecretNames(grants: {
  secrets?: readonly string[] | undefined;
  fetch?: { headers?: Readonly<Record<string, Readonly<Record<string, string>>>> | undefined } | undefined;
}): { inEnv: string[]; inHeaders: string[] } {
  const inEnv = [...new Set(grants.secrets ?? [])];
  const inHeaders = new Set<string>();
  for (const headers of Object.values(grants.fetch?.headers ?? {}))
    for (const template of Object.values(headers)) {
      const placeholders = templatePlaceholders(template);
      if (placeholders.ok) for (const name of placeholders.names) if (!inEnv.includes(name)) inHeaders.add(name);
    }
  return { inEnv, inHeaders: [...inHeaders] };
}

/** Why a grants object's secrets are refused (too many names in all), or undefined. */
export function secretGrantsProblem(grants: Parameters<typeof grantedSecretNames>[0]): string | undefined {
  const { inEnv, inHeaders } = grantedSecretNames(grants);
  const total = inEnv.length + inHeaders.length;
  return total > MAX_SECRET_GRANTS
    ? `The grants name ${total} secrets (in "grants.secrets" and fetch header templates); the limit is ${MAX_SECRET_GRANTS}.`
    : undefined;
}
