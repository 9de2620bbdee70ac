/**
 * Published agents' versions this Worker isolate has read, one holder for RPC calls and HTTP endpoints:
 * a version never changes, so each is read from its workspace once while it is kept here, bounded by
 * the size of its files. An agent's latest version is only ever a guess here (`seenLatest`): a lookup
 * confirms it, so a publish is seen by the very next call.
 */

import type { AgentVersion } from "@gadgets/workshop-shared/api";
import { LRUCache } from "lru-cache";
import { AGENT_VERSION_CACHE_BYTES } from "../isolate-caches.ts";
import { type ResolvedAgent, resolvedAgentBytes } from "../storage/agent-table.ts";

export type PublishedVersion = ResolvedAgent & { meta: AgentVersion };

const versions = new LRUCache<string, PublishedVersion>({
  max: 1024,
  maxSize: AGENT_VERSION_CACHE_BYTES,
  sizeCalculation: resolvedAgentBytes,
});
/** The version each agent (by the ref it was called by) was last found to be the latest at: a key of `versions`. */
const latestSeen = new LRUCache<string, string>({ max: 4096 });

const versionKey = (workspaceId: string, agentId: string, version: number) => `${workspaceId}:${agentId}@${version}`;

/** A version of the agent `agentId` (its id, never its name: a name moves to whichever agent published under it last). */
export function knownVersion(workspaceId: string, agentId: string, version: number): PublishedVersion | undefined {
  return versions.get(versionKey(workspaceId, agentId, version));
}

export function keepVersion(workspaceId: string, agent: PublishedVersion): void {
  versions.set(versionKey(workspaceId, agent.agentId, agent.version), agent);
}

/** The version `ref` was last found to be the latest at, while it is kept. */
export function seenLatest(workspaceId: string, ref: string): PublishedVersion | undefined {
  const key = latestSeen.get(`${workspaceId}:${ref}`);
  return key === undefined ? undefined : versions.get(key);
}

export function sawLatest(workspaceId: string, ref: string, agent: PublishedVersion): void {
  keepVersion(workspaceId, agent);
  latestSeen.set(`${workspaceId}:${ref}`, versionKey(workspaceId, agent.agentId, agent.version));
}
