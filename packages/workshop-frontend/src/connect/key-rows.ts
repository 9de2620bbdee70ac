/** The workspace's API keys as the "Connect a client" dialog lists them: a line of words per key. */

import type { ApiKeyInfo, ApiKeyScope } from "@gadgets/workshop-shared";
import { ago } from "../problems/problems.ts";

export interface KeyRow {
  keyId: string;
  name: string;
  scope: string;
  agents: string;
  created: string;
  lastUsed: string;
}

const SCOPES: Record<ApiKeyScope, string> = {
  call: "call: list and run published agents",
  full: "full: everything but managing keys",
};

/** When something happened, for a list that is read now: "3 min ago", or the date past two days. */
function when(at: number, now: number): string {
  return now - at < 48 * 3600_000 ? ago(at, now) : new Date(at).toISOString().slice(0, 10);
}

/**
 * Rows in the order the keys were made, newest first; `agentNames` names the agents a key is limited
 * to (by id), an id it does not know (an agent since deleted) is shown as the id.
 */
export function keyRows(keys: readonly ApiKeyInfo[], agentNames: ReadonlyMap<string, string>, now: number): KeyRow[] {
  return [...keys]
    .sort((a, b) => b.createdAt - a.createdAt)
    .map((key) => ({
      keyId: key.keyId,
      name: key.name,
      scope: SCOPES[key.scope] ?? key.scope,
      agents: key.agents === null ? "all agents" : key.agents.map((id) => agentNames.get(id) ?? id).join(", "),
      created: when(key.createdAt, now),
      lastUsed: key.lastUsedAt === null ? "never used" : `used ${when(key.lastUsedAt, now)}`,
    }));
}
