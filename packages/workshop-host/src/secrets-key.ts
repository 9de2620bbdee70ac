/**
 * The key the local Workshop seals workspace secrets with (the Worker's `SECRETS_KEY`): kept in a key file
 * apart from the data folder — by default `<data>.secrets-key` beside it — made owner-only on first start.
 * A copy of the data folder alone then holds no way to open the secrets in it.
 */

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, isAbsolute, relative, resolve, sep } from "node:path";

const KEY_BYTES = 32;

/** Where `pnpm start` keeps the key for a data folder when no `--secrets-key` is given: a sibling file. */
export function defaultSecretsKeyFile(dataDir: string): string {
  return `${resolve(dataDir)}.secrets-key`;
}

/** A new key as the binding takes it: base64 of 32 random bytes. */
export function newSecretsKey(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

/**
 * The key in `file`, made (mode 0600) when the file does not exist yet. Refuses a file inside the data
 * folder, and one that does not hold base64 of 32 bytes, saying how to fix it.
 */
export function loadSecretsKey(file: string, dataDir: string): string {
  const path = resolve(file);
  const inside = relative(resolve(dataDir), path);
  const outside = inside === ".." || inside.startsWith(`..${sep}`) || isAbsolute(inside);
  if (!outside)
    throw new Error(
      `The secrets key file ${path} is inside the data folder ${resolve(dataDir)}: keep it apart, so a copy of the data holds no key to its secrets.`,
    );
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    // `wx`: never overwrite a key another process just wrote; the secrets sealed with it would be lost.
    writeFileSync(path, `${newSecretsKey()}\n`, { mode: 0o600, flag: "wx" });
  }
  const key = readFileSync(path, "utf8").trim();
  if (Buffer.from(key, "base64").byteLength !== KEY_BYTES || !/^[A-Za-z0-9+/]+={0,2}$/.test(key))
    throw new Error(
      `The secrets key file ${path} does not hold base64 of ${KEY_BYTES} bytes. Restore the file it was, or (losing the secrets sealed with it) delete it to have a new one made.`,
    );
  return key;
}
