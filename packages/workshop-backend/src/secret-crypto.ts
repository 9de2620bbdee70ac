/**
 * Workspace secrets at rest: AES-256-GCM (WebCrypto) under the Worker's `SECRETS_KEY`, a random 96-bit
 * IV per value, and the workspace id and secret name as additional data, so a stored value moved to
 * another name or workspace does not decrypt. The key is a binding (a Worker secret on Cloudflare, a
 * file apart from the data folder locally): the data folder alone never holds what opens it.
 */

/** What a secret's row holds: base64 of the IV and of the ciphertext (with its tag). */
export interface SealedSecret {
  iv: string;
  data: string;
}

const KEY_BYTES = 32;
const IV_BYTES = 12;

const encoder = new TextEncoder();

function toBase64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Binds a value to where it belongs: versioned, so the layout can change without confusing old rows. */
const additionalData = (workspaceId: string, name: string) =>
  encoder.encode(`gadget-workshop secret v1\n${workspaceId}\n${name}`);

/** Why a `SECRETS_KEY` is not a key, or undefined when it is base64 of 32 bytes. */
export function secretsKeyProblem(text: string): string | undefined {
  let bytes: Uint8Array;
  try {
    bytes = fromBase64(text.trim());
  } catch {
    return "SECRETS_KEY is not base64.";
  }
  return bytes.byteLength === KEY_BYTES
    ? undefined
    : `SECRETS_KEY must be base64 of ${KEY_BYTES} random bytes; it holds ${bytes.byteLength}. Make one with: openssl rand -base64 32`;
}

/** Imports the key (non-extractable); throws with the problem when it is not base64 of 32 bytes. */
export async function importSecretsKey(text: string): Promise<CryptoKey> {
  const problem = secretsKeyProblem(text);
  if (problem) throw new Error(problem);
  return crypto.subtle.importKey("raw", fromBase64(text.trim()), { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

/** A fresh key as the binding holds it (base64 of 32 random bytes). */
export function newSecretsKey(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(KEY_BYTES)));
}

export async function sealSecret(
  key: CryptoKey,
  workspaceId: string,
  name: string,
  value: string,
): Promise<SealedSecret> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: additionalData(workspaceId, name) },
    key,
    encoder.encode(value),
  );
  return { iv: toBase64(iv), data: toBase64(new Uint8Array(data)) };
}

/** The value, or throws when the key, the workspace or the name is not the one it was sealed with. */
export async function openSecret(
  key: CryptoKey,
  workspaceId: string,
  name: string,
  sealed: SealedSecret,
): Promise<string> {
  const plain = await crypto.subtle.decrypt(
    { name: "AES-GCM", iv: fromBase64(sealed.iv), additionalData: additionalData(workspaceId, name) },
    key,
    fromBase64(sealed.data),
  );
  return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(plain);
}
