/** The session an MCP request runs in: its API key's, opened as `getSession` opens one, marked as MCP. */

import { authenticate } from "../rpc/credentials.ts";
import type { Connection } from "../rpc/connection.ts";
import { SessionTarget } from "../rpc/session-target.ts";

export type OpenedKeySession =
  | { ok: true; workspaceId: string; session: SessionTarget }
  | { ok: false; status: 401 | 403 | 429; message: string };

export async function openKeySession(connection: Connection, credential: string): Promise<OpenedKeySession> {
  const auth = await authenticate(connection.env, connection.client, credential, connection);
  if (!auth.ok) return { ok: false, status: auth.code === "RATE_LIMITED" ? 429 : 401, message: auth.message };
  // The master key stays with its owner: an LLM client gets a key that can be scoped and revoked.
  if (auth.access.kind === "owner")
    return {
      ok: false,
      status: 403,
      message:
        "The MCP endpoint takes an API key, not the workspace token: make one with `gadgets keys create <name>` or in the IDE's Connect panel.",
    };
  try {
    connection.reserve("sessions", auth.workspaceId, auth.access.keyId);
  } catch (error) {
    return { ok: false, status: 429, message: error instanceof Error ? error.message : String(error) };
  }
  return {
    ok: true,
    workspaceId: auth.workspaceId,
    session: new SessionTarget(connection, auth.workspaceId, auth.store, auth.settings, auth.access, "mcp"),
  };
}
