/** A tarball's `integrity` (Subresource Integrity, sha512), checked with WebCrypto before any byte is used. */

import { PackageError } from "./package-error.ts";

function base64(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text);
}

/** The bytes' integrity string, `sha512-<base64>`. */
export async function sha512Integrity(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-512", bytes as Uint8Array<ArrayBuffer>);
  return `sha512-${base64(new Uint8Array(digest))}`;
}

/** Throws kind "integrity", naming the package and version, unless `bytes` hash to `integrity`. */
export async function verifyIntegrity(
  bytes: Uint8Array,
  integrity: string,
  name: string,
  version: string,
): Promise<void> {
  const actual = await sha512Integrity(bytes);
  if (actual !== integrity)
    throw new PackageError(
      "integrity",
      `The tarball of ${name}@${version} does not match its integrity: expected ${integrity.slice(0, 24)}…, got ${actual.slice(0, 24)}…. It was refused and nothing of it was used; the registry or something between it and the Workshop changed the file.`,
      name,
    );
}
