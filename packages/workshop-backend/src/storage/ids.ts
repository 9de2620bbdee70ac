/** Random ids, workspace tokens and API keys. Every id is ≥ 128 bits of randomness, base64url, not enumerable. */

function base64url(bytes: Uint8Array): string {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** 128 random bits as 22 URL-safe characters. */
export function randomId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}

/** A workspace token: 256 random bits with a recognisable prefix (so leaks are easy to scan for). */
export function newWorkspaceToken(): string {
  return `gw_${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/**
 * The workspace id is derived from the token (SHA-256, first 128 bits): the server stores no token,
 * and holding an id does not grant access.
 */
export async function workspaceIdFor(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return base64url(new Uint8Array(digest).slice(0, 16));
}

/**
 * An API key of the workspace `workspaceId`: `gk_`, the id (so the key names its workspace: no global
 * index of keys is needed, and the id alone grants nothing) and 256 random bits.
 */
export function newApiKey(workspaceId: string): string {
  return `gk_${workspaceId}${base64url(crypto.getRandomValues(new Uint8Array(32)))}`;
}

/** What the workspace keeps of a key: the SHA-256 of the whole key, never the key. */
export async function apiKeyHash(key: string): Promise<string> {
  return base64url(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(key))));
}
