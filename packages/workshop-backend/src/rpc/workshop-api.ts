/** The root object of every `/api` session: create a workspace, or authenticate into one. */

import { RpcTarget } from "capnweb";
import type {
  ConnectionStats,
  SharedRunRecord,
  ShareSnapshot,
  WorkshopApi,
  WorkspaceCredentials,
} from "@gadgets/workshop-shared/api";
import { MAX_TOKEN_LENGTH } from "@gadgets/workshop-shared/limits";
import { isWellFormedToken, newWorkspaceToken, workspaceIdFor } from "../storage/ids.ts";
import type { Connection } from "./connection.ts";
import { PublicRecordTarget, PublicShareTarget } from "./public-share.ts";
import { RateLimiter } from "./rate-limiter.ts";
import { SessionTarget } from "./session-target.ts";
import { loadShare } from "./share-links.ts";

/** Workspaces one connection may create: enough for tests and tabs, not for a flood. */
const MAX_WORKSPACES_PER_CONNECTION = 20;

/** Unknown tokens tried per connection before it is refused further attempts. */
const MAX_FAILED_SESSIONS_PER_CONNECTION = 20;
/** Unknown tokens tried per minute across the server; past it, no lookups (each costs a storage object). */
const unknownTokens = new RateLimiter(600);

export class WorkshopApiTarget extends RpcTarget implements WorkshopApi {
  #created = 0;
  #failedSessions = 0;

  constructor(private readonly connection: Connection) {
    super();
  }

  async createWorkspace(): Promise<WorkspaceCredentials> {
    if (++this.#created > MAX_WORKSPACES_PER_CONNECTION) {
      throw new Error(
        `This connection already created ${MAX_WORKSPACES_PER_CONNECTION} workspaces, the limit. Reuse a token you have.`,
      );
    }
    const token = newWorkspaceToken();
    const workspaceId = await workspaceIdFor(token);
    const store = this.connection.env.WORKSPACES.get(this.connection.env.WORKSPACES.idFromName(workspaceId));
    await store.initialize(workspaceId);
    return { workspaceId, token };
  }

  async getSession(token: string): Promise<SessionTarget> {
    const invalid =
      "Invalid workspace token: it should look like gw_… (46 characters). Create a workspace with createWorkspace(), or check WORKSHOP_TOKEN.";
    if (typeof token !== "string" || token.length > MAX_TOKEN_LENGTH || !isWellFormedToken(token))
      throw new TypeError(invalid);
    if (this.#failedSessions >= MAX_FAILED_SESSIONS_PER_CONNECTION || !unknownTokens.allows()) {
      throw new Error(
        "Too many attempts with tokens that belong to no workspace. Wait a minute, then check WORKSHOP_TOKEN.",
      );
    }
    const workspaceId = await workspaceIdFor(token);
    const store = this.connection.env.WORKSPACES.get(this.connection.env.WORKSPACES.idFromName(workspaceId));
    const opened = await store.openSession();
    if (!opened.exists) {
      this.#failedSessions++;
      unknownTokens.take();
      throw new Error(
        "Unknown workspace token: no workspace belongs to it. Create a workspace with createWorkspace().",
      );
    }
    return new SessionTarget(this.connection, workspaceId, store, opened.settings);
  }

  async openShare(shareId: string): Promise<PublicShareTarget> {
    return new PublicShareTarget(this.connection, await loadShare<ShareSnapshot>(this.connection, "snapshot", shareId));
  }

  async openRecord(recordId: string): Promise<PublicRecordTarget> {
    return new PublicRecordTarget(
      this.connection,
      await loadShare<SharedRunRecord>(this.connection, "record", recordId),
    );
  }

  async ping(): Promise<"pong"> {
    return "pong";
  }

  /** The session ended (client disposed the root or the socket closed). */
  [Symbol.dispose](): void {
    this.connection.close();
  }

  /** Live server-side objects of this connection; disposal on the client shows up here. */
  async connectionStats(): Promise<ConnectionStats> {
    return { ...this.connection.stats };
  }
}
