/** A published agent as an RPC object: created at once (so it can be pipelined), resolved on use. */

import { RpcTarget } from "capnweb";
import type { Agent, AgentVersion, JsonValue, RunEventListener, RunOptions, RunOutcome } from "@gadgets/workshop-shared/api";
import { checkId } from "@gadgets/workshop-shared/validate";
import type { ResolvedAgent, WorkspaceStore } from "../storage/workspace-store.ts";
import type { Connection } from "./connection.ts";
import { launchRun } from "./run-launcher.ts";
import type { RunRecordWriter } from "./run-record-writer.ts";

/**
 * Published versions never change, so a pinned `id@N` is read from storage once per Worker isolate.
 * The latest version is always looked up: a publish must be visible to the very next call.
 */
const pinnedVersions = new Map<string, ResolvedAgent & { meta: AgentVersion }>();
const PINNED_CACHE_SIZE = 256;

/** `id` or `id@version`. */
export function parseAgentRef(ref: unknown): { ok: true; agentId: string; version: number | undefined } | { ok: false; error: string } {
  if (typeof ref !== "string") return { ok: false, error: "An agent reference must be a string: the agent id, or id@version." };
  const at = ref.lastIndexOf("@");
  const idPart = at === -1 ? ref : ref.slice(0, at);
  const versionPart = at === -1 ? undefined : ref.slice(at + 1);
  const id = checkId(idPart, "agent id");
  if (!id.ok) return id;
  if (versionPart === undefined) return { ok: true, agentId: id.value, version: undefined };
  if (!/^[1-9][0-9]{0,8}$/.test(versionPart)) return { ok: false, error: `Invalid agent version "${versionPart}" in "${ref}": use a positive whole number, like ${id.value}@2.` };
  return { ok: true, agentId: id.value, version: Number(versionPart) };
}

export class AgentTarget extends RpcTarget implements Agent {
  #disposed = false;

  constructor(
    private readonly connection: Connection,
    private readonly workspaceId: string,
    private readonly store: DurableObjectStub<WorkspaceStore>,
    private readonly records: RunRecordWriter,
    private readonly defaultTimeoutMs: number,
    private readonly ref: unknown,
  ) {
    super();
    connection.stats.agents++;
  }

  async #resolve(): Promise<ResolvedAgent & { meta: AgentVersion }> {
    const parsed = parseAgentRef(this.ref);
    if (!parsed.ok) throw new TypeError(parsed.error);
    const pinnedKey = parsed.version === undefined ? undefined : `${this.workspaceId}:${parsed.agentId}@${parsed.version}`;
    const pinned = pinnedKey === undefined ? undefined : pinnedVersions.get(pinnedKey);
    if (pinned) return pinned;
    const resolved = await this.store.resolveAgent(parsed.agentId, parsed.version);
    if (resolved && pinnedKey !== undefined) {
      pinnedVersions.set(pinnedKey, resolved as ResolvedAgent & { meta: AgentVersion });
      if (pinnedVersions.size > PINNED_CACHE_SIZE) {
        const oldest = pinnedVersions.keys().next().value;
        if (oldest !== undefined) pinnedVersions.delete(oldest);
      }
    }
    if (!resolved) {
      throw new Error(
        parsed.version === undefined
          ? `Agent ${parsed.agentId} was not found in this workspace. Publish a draft first, and use the agentId that publishDraft returned.`
          : `Agent ${parsed.agentId} has no version ${parsed.version} in this workspace.`,
      );
    }
    return resolved as ResolvedAgent & { meta: AgentVersion };
  }

  async describe(): Promise<AgentVersion> {
    return (await this.#resolve()).meta;
  }

  async runWithEvents(payload: JsonValue, onEvent?: RunEventListener, options?: RunOptions): Promise<RunOutcome> {
    const receivedAt = Date.now();
    if (onEvent !== undefined && typeof onEvent !== "function") throw new TypeError("onEvent must be a function (or left out).");
    const agent = await this.#resolve();
    return launchRun(this.connection, this.workspaceId, this.records, {
      source: { kind: "agent", agentId: agent.agentId, version: agent.version },
      files: agent.files,
      payload,
      listener: onEvent,
      timeoutMs: options?.timeoutMs ?? this.defaultTimeoutMs,
      receivedAt,
      codeKey: `agent:${agent.agentId}@${agent.version}`,
    });
  }

  async run(payload: JsonValue): Promise<JsonValue> {
    const outcome = await this.runWithEvents(payload);
    if (outcome.status === "ok") return outcome.result;
    const stack = outcome.error?.stack ? `\n${outcome.error.stack}` : "";
    const error = new Error(`Agent run failed (${outcome.kind}): ${outcome.message}${stack}`);
    error.name = outcome.kind === "invalid" ? "InvalidRunError" : "AgentRunError";
    throw error;
  }

  [Symbol.dispose](): void {
    if (this.#disposed) return;
    this.#disposed = true;
    this.connection.stats.agents--;
  }
}
