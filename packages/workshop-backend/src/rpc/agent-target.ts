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
import { keepVersion, knownVersion, type PublishedVersion, sawLatest, seenLatest } from "./agent-versions.ts";
import { latestAgentRef, launchRun, type RunContext, resolveAgentRef, SUPERSEDED } from "./run-launcher.ts";
import { codedError, errorCode } from "@gadgets/workshop-shared/errors";
import { allowsAgent } from "./credentials.ts";

export class AgentTarget extends RpcTarget implements Agent {
  #disposed = false;

  constructor(
    private readonly context: RunContext,
    private readonly ref: unknown,
    /** Told once the stub is disposed (its session keeps its stubs until then). */
    private readonly onDispose?: () => void,
  ) {
    super();
    // Reserved by the caller (SessionTarget.getAgent), which refuses past the live-object caps.
  }

  /** The ref as called: its agent id or name, and its version when pinned. */
  #ref(): { ref: string; base: string; version: number | undefined } {
    // Checked on first use, not in getAgent: the stub is handed out at once so calls on it can be pipelined.
    return parseArgument(AgentRefSchema, this.ref);
  }

  /** Whether the session's credential may run this agent (an API key may be limited to some). */
  #allowed(agent: PublishedVersion): boolean {
    return !this.context.access || allowsAgent(this.context.access, agent);
  }

  /** The agent, unless the session's API key is limited to other agents: then it is one not found. */
  #mayRun(agent: PublishedVersion, ref: string): PublishedVersion {
    if (this.#allowed(agent)) return agent;
    throw this.#notFound(ref);
  }

  /**
   * An agent this session cannot reach. For a key limited to agents, one it may not run gets the same
   * answer as one that does not exist: the key learns nothing of the others, not even their names.
   */
  #notFound(ref: string): Error {
    const access = this.context.access;
    if (access?.kind === "key" && access.agents !== null)
      return codedError("AGENT_NOT_FOUND", `Agent ${ref} was not found among the agents this API key may run.`);
    return codedError(
      "AGENT_NOT_FOUND",
      `Agent ${ref} was not found in this workspace. Publish a draft first, and use the agentId (or name) that publishDraft returned.`,
    );
  }

  async #resolve(): Promise<PublishedVersion> {
    const { ref, base, version } = this.#ref();
    const { workspaceId } = this.context;
    // A pinned version is read once; `name@N` is looked up, since the name may have moved.
    const cached = version === undefined ? undefined : knownVersion(workspaceId, base, version);
    if (cached) return this.#mayRun(cached, ref);
    let resolved: PublishedVersion;
    try {
      resolved = (await resolveAgentRef(this.context.store, ref)) as PublishedVersion;
    } catch (error) {
      if (errorCode(error) !== "AGENT_NOT_FOUND") throw error;
      throw this.#notFound(ref);
    }
    if (version === undefined) sawLatest(workspaceId, ref, resolved);
    else keepVersion(workspaceId, resolved);
    return this.#mayRun(resolved, ref);
  }

  async describe(): Promise<AgentVersion> {
    await this.context.authorize?.();
    return (await this.#resolve()).meta;
  }

  async runWithEvents(
    payload: JsonValue,
    onEvent?: RunEventListener | null,
    options?: RunOptions | null,
  ): Promise<RunOutcome> {
    const receivedAt = Date.now();
    // A revoked key's stub runs nothing (run() comes through here too).
    await this.context.authorize?.();
    const listener = parseArgument(RunEventListenerSchema, onEvent);
    const request = (agent: PublishedVersion) => ({
      source: { kind: "agent" as const, agentId: agent.agentId, version: agent.version },
      scope: agent.draftId,
      files: agent.files,
      payload,
      options,
      listener,
      timeoutMs: this.context.timeoutMs,
      receivedAt,
      codeKey: `agent:${agent.agentId}@${agent.version}`,
    });
    const { ref, version } = this.#ref();
    // The version this isolate last found for the latest: a guess, which the lookup confirms. Never one
    // the session may not run: that is left to the lookup, which refuses it.
    const seen = version === undefined ? seenLatest(this.context.workspaceId, ref) : undefined;
    const guess = seen && this.#allowed(seen) ? seen : undefined;
    if (guess) {
      // Only which version is the latest now: the guess has the version's files and schemas already.
      const confirmed = latestAgentRef(this.context.store, ref).then(
        (latest) => latest.agentId === guess.agentId && latest.version === guess.version,
        () => false,
      );
      const outcome = await launchRun(this.context, { ...request(guess), confirmed });
      if (outcome !== SUPERSEDED) return outcome;
      // The guess was stale (or the agent is gone, and the full lookup says so).
    }
    return launchRun(this.context, request(await this.#resolve()));
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
    this.onDispose?.();
  }
}
