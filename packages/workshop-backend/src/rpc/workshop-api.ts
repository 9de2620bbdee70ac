/** The root object of every `/api` session: create a workspace, or authenticate into one. */

import { RpcTarget } from "capnweb";
import type {
  ConnectionStats,
  SharedRunRecord,
  ShareSnapshot,
  WorkshopApi,
  WorkspaceCredentials,
} from "@gadgets/workshop-shared/api";
import {
  MAX_FAILED_SESSIONS_PER_CONNECTION,
  MAX_WORKSPACES_PER_CONNECTION,
  WORKSPACES_PER_CLIENT_PER_HOUR,
} from "@gadgets/workshop-shared/limits";
import { check, WorkspaceTokenSchema } from "@gadgets/workshop-shared/schemas";
import { newWorkspaceToken, workspaceIdFor } from "../storage/ids.ts";
import { clientMisses, clientWorkspaces, TOO_MANY_MISSES } from "./client-limits.ts";
import type { Connection } from "./connection.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import { PublicRecordTarget, PublicShareTarget } from "./public-share.ts";
import { isRegistered, register } from "./registry.ts";
import { SessionTarget } from "./session-target.ts";
import { loadShare } from "./share-links.ts";
import { codedError } from "@gadgets/workshop-shared/errors";

export class WorkshopApiTarget extends RpcTarget implements WorkshopApi {
  #created = 0;

  constructor(private readonly connection: Connection) {
    super();
  }

  async createWorkspace(): Promise<WorkspaceCredentials> {
    if (++this.#created > MAX_WORKSPACES_PER_CONNECTION) {
      throw new Error(
        `This connection already created ${MAX_WORKSPACES_PER_CONNECTION} workspaces, the limit. Reuse a token you have.`,
      );
    }
    if (!clientWorkspaces.take(this.connection.client))
      throw new Error(
        `This client created ${WORKSPACES_PER_CLIENT_PER_HOUR} workspaces in the last hour, the limit. Reuse a token you have, or wait.`,
      );
    await checkDiskForWrite(this.connection.env);
    const token = newWorkspaceToken();
    const workspaceId = await workspaceIdFor(token);
    const store = this.connection.env.WORKSPACES.get(this.connection.env.WORKSPACES.idFromName(workspaceId));
    await store.initialize(workspaceId);
    await register(this.connection.env, "workspace", workspaceId, "");
    return { workspaceId, token };
  }

  async getSession(rawToken: string): Promise<SessionTarget> {
    // A malformed token has its own code, so clients can tell it from an unknown one.
    const checked = check(WorkspaceTokenSchema, rawToken);
    if (!checked.ok) throw codedError("INVALID_TOKEN", checked.error, TypeError);
    const token = checked.value;
    const { connection } = this;
    // Only this connection's and this client's own misses count here: another client's never do.
    if (connection.failedSessions >= MAX_FAILED_SESSIONS_PER_CONNECTION || !clientMisses.allows(connection.client))
      throw codedError("RATE_LIMITED", TOO_MANY_MISSES);
    const workspaceId = await workspaceIdFor(token);
    const store = connection.env.WORKSPACES.get(connection.env.WORKSPACES.idFromName(workspaceId));
    const unknown = () => {
      connection.failedSessions++;
      clientMisses.take(connection.client);
      return codedError(
        "UNKNOWN_TOKEN",
        "Unknown workspace token: no workspace belongs to it. Create a workspace with createWorkspace().",
      );
    };
    // The directory answers first: an unknown token never touches (nor creates) a workspace's storage.
    if (!(await isRegistered(connection.env, "workspace", workspaceId, () => store.exists()))) throw unknown();
    connection.reserve("sessions", workspaceId);
    try {
      const opened = await store.openSession();
      if (!opened.exists) throw unknown();
      const session = new SessionTarget(connection, workspaceId, store, opened.settings);
      // The person is about to run something: the first run should not wait for the executor's setup.
      connection.executor.prepare?.();
      return session;
    } catch (error) {
      connection.release("sessions", workspaceId);
      throw error;
    }
  }

  async openShare(shareId: string): Promise<PublicShareTarget> {
    this.connection.openLink();
    try {
      const snapshot = await loadShare<ShareSnapshot>(this.connection, "snapshot", shareId);
      this.connection.executor.prepare?.();
      return new PublicShareTarget(this.connection, snapshot);
    } catch (error) {
      this.connection.closeLink();
      throw error;
    }
  }

  async openRecord(recordId: string): Promise<PublicRecordTarget> {
    this.connection.openLink();
    try {
      return new PublicRecordTarget(
        this.connection,
        await loadShare<SharedRunRecord>(this.connection, "record", recordId),
      );
    } catch (error) {
      this.connection.closeLink();
      throw error;
    }
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
