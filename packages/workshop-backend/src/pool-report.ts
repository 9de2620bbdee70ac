/** A report from the local runner pool about a workspace's runner, checked before it is filed. */

export interface PoolReportBody {
  workspaceId: string;
  kind: "leftover-cpu" | "leftover-memory";
  message: string;
}

const KINDS = new Set(["leftover-cpu", "leftover-memory"]);
/** Workspace ids are hex digests; anonymous ones carry a connection id. */
const MAX_WORKSPACE_ID_CHARS = 200;
const MAX_MESSAGE_CHARS = 1000;

export function checkPoolReport(body: unknown): { ok: true; value: PoolReportBody } | { ok: false; error: string } {
  const value = (typeof body === "object" && body !== null ? body : {}) as Record<string, unknown>;
  const { workspaceId, kind, message } = value;
  if (typeof workspaceId !== "string" || workspaceId.length === 0 || workspaceId.length > MAX_WORKSPACE_ID_CHARS)
    return { ok: false, error: `workspaceId must be a string of 1 to ${MAX_WORKSPACE_ID_CHARS} characters.` };
  if (typeof kind !== "string" || !KINDS.has(kind))
    return { ok: false, error: `kind must be one of ${[...KINDS].join(", ")}.` };
  if (typeof message !== "string" || message.length === 0 || message.length > MAX_MESSAGE_CHARS)
    return { ok: false, error: `message must be a string of 1 to ${MAX_MESSAGE_CHARS} characters.` };
  return { ok: true, value: { workspaceId, kind: kind as PoolReportBody["kind"], message } };
}
