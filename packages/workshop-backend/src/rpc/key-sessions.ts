/**
 * The live sessions of API keys in this Worker isolate, by key. A revoked key's sessions let go of the
 * workspace's live-object slots (theirs and their agent stubs') at once when the revocation happens in
 * this isolate, and at their first call after it otherwise — never only when their client goes away,
 * which a key's holder could put off for ever while the owner is refused sessions.
 */

export interface RevocableSession {
  revoke(): void;
}

const byKey = new Map<string, Set<RevocableSession>>();

/** Counts `session` as one of `keyId`'s; the function returned forgets it (the session was disposed). */
export function trackKeySession(keyId: string, session: RevocableSession): () => void {
  const sessions = byKey.get(keyId) ?? new Set();
  sessions.add(session);
  byKey.set(keyId, sessions);
  return () => {
    sessions.delete(session);
    if (sessions.size === 0 && byKey.get(keyId) === sessions) byKey.delete(keyId);
  };
}

/** The key was revoked: each of its live sessions here lets go of what it holds. */
export function revokeKeySessions(keyId: string): void {
  for (const session of [...(byKey.get(keyId) ?? [])]) session.revoke();
  byKey.delete(keyId);
}
