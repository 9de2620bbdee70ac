/**
 * Which names of an HTTP request (headers, query parameters, form fields, JSON keys) hold credentials,
 * so that a request's record keeps none of their values. A record may be shared, so a name is taken for
 * a credential when in doubt: the gadget always gets every value as sent.
 */

/** Names whose values are credentials, wherever they appear in a name (`x-api-key`, `csrftoken`, `client-secret`). */
const CREDENTIAL_PARTS = [
  "authorization",
  "token",
  "secret",
  "password",
  "passwd",
  "passphrase",
  "apikey",
  "accesskey",
  "privatekey",
  "credential",
];
/**
 * Words of a name that make it a credential's (`X-Auth-Key`, `auth_key`, `pwd`, `jwt`, `sessionId`,
 * Azure's `x-functions-key`): a name is split into words at `-`, `_`, `.` and lower-to-upper case.
 */
const CREDENTIAL_WORDS = new Set([
  "auth",
  "authentication",
  "key",
  "pass",
  "pwd",
  "jwt",
  "session",
  "sessionid",
  "sid",
]);
/**
 * In a query or a form only: a signed URL's signature is its credential (S3's `X-Amz-Signature`, a SAS
 * `sig`), as is an OAuth or Azure Functions `code`. A signature header (`X-Hub-Signature-256`) is bound
 * to its body and is kept: it is what a webhook's author debugs.
 */
const FIELD_CREDENTIAL_NAMES = new Set(["sig", "code"]);

/** `X-Auth-Key` → x, auth, key; `sessionId` → session, id. */
function words(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[^a-z0-9]+/);
}

/**
 * Whether the value of a header (`where: "header"`) or of a query parameter, form field or JSON body key
 * (`where: "field"`) named `name` is kept out of records.
 */
export function isCredentialName(name: string, where: "header" | "field" = "field"): boolean {
  const joined = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  if (CREDENTIAL_PARTS.some((part) => joined.includes(part))) return true;
  const parts = words(name);
  if (parts.some((word) => CREDENTIAL_WORDS.has(word))) return true;
  return where === "field" && (joined.includes("signature") || FIELD_CREDENTIAL_NAMES.has(name.toLowerCase()));
}

/** A header value that names an authorization scheme (`Bearer …`, `Basic …`) is a credential under any name. */
export function isCredentialValue(value: string): boolean {
  return /^\s*(bearer|basic|token|digest)\s+\S/i.test(value);
}

/**
 * Whether text that is no JSON or form the Workshop can read holds something shaped like a credential
 * field (`"token": "…"` of JSON that does not parse, `api_key=…`, `password: …`): such a body is kept out
 * of the record whole. Prose that merely mentions a key is kept.
 */
export function mentionsCredentialField(text: string): boolean {
  // Bounded repeats: a body is a stranger's text, and `\w*` before a choice would backtrack over every
  // long run of word characters (quadratic in the body).
  return /(auth|token|secret|pass|pwd|key|jwt|session|credential|signature|sig)\w{0,32}["']?[ \t]{0,8}[:=]/i.test(text);
}
