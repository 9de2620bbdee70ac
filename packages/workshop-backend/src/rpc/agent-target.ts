/** A published agent as an RPC object: created at once (so it can be pipelined), resolved on use. */

import { RpcTarget } from "capnweb";
import type {
  Agent,
  AgentVersion,
  JsonValue,
  RunEventListener,
  RunOptions,
  RunOutcome,
} from "@gadgets/workshop-shared/api";
import { AgentRefSchema, parseArgument, RunEventListenerSchema } from "@gadgets/workshop-shared/schemas";
import type { ResolvedAgent } from "../storage/workspace-store.ts";
import { LRUCache } from "lru-cache";
import { launchRun, resolveAgentRef, type RunContext } from "./run-launcher.ts";
import { codedError, errorCode } from "@gadgets/workshop-shared/errors";

/**
 * Published versions never change, so a pinned `ref@N` is read from storage once per Worker isolate.
 * The latest version is always looked up: a publish must be visible to the very next call.
 */
const pinnedVersions = new LRUCache<string, ResolvedAgent & { meta: AgentVersion }>({ max: 256 });

export class AgentTarget extends RpcTarget implements Agent {
  #disposed = false;

  constructor(
    private readonly context: RunContext,
    private readonly ref: unknown,
  ) {
    super();
    // Reserved by the caller (SessionTarget.getAgent), which refuses past the live-object caps.
  }

  async #resolve(): Promise<ResolvedAgent & { meta: AgentVersion }> {
    // Checked on first use, not in getAgent: the stub is handed out at once so calls on it can be pipelined.
    const { ref, version } = parseArgument(AgentRefSchema, this.ref);
    const pinned = version !== undefined;
    const key = `${this.context.workspaceId}:${ref}`;
    const cached = pinned ? pinnedVersions.get(key) : undefined;
    if (cached) return cached;
    let resolved: ResolvedAgent & { meta: AgentVersion };
    try {
      resolved = (await resolveAgentRef(this.context.store, ref)) as ResolvedAgent & { meta: AgentVersion };
    } catch (error) {
      if (errorCode(error) !== "AGENT_NOT_FOUND") throw error;
      throw codedError(
        "AGENT_NOT_FOUND",
        `Agent ${ref} was not found in this workspace. Publish a draft first, and use the agentId (or name) that publishDraft returned.`,
      );
    }
    if (pinned) pinnedVersions.set(key, resolved);
    return resolved;
  }

  async describe(): Promise<AgentVersion> {
    return (await this.#resolve()).meta;
  }

  async runWithEvents(
    payload: JsonValue,
    onEvent?: RunEventListener | null,
    options?: RunOptions | null,
  ): Promise<RunOutcome> {
    const receivedAt = Date.now();
    const listener = parseArgument(RunEventListenerSchema, onEvent);
    const agent = await this.#resolve();
    return launchRun(this.context, {
      source: { kind: "agent", agentId: agent.agentId, version: agent.version },
      scope: agent.draftId,
      files: agent.files,
      payload,
      options,
      listener,
      timeoutMs: this.context.timeoutMs,
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
    this.context.connection.release("agents", this.context.workspaceId);
  }
}
