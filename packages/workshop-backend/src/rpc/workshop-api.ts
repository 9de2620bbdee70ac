/** The root object of every `/api` session: create a workspace, or authenticate into one. */

import { RpcTarget } from "capnweb";
import type {
  ConnectionStats,
  SharedRunRecord,
  ShareSnapshot,
  WorkshopApi,
  WorkspaceCredentials,
} from "@gadgets/workshop-shared/api";
import { MAX_WORKSPACES_PER_CONNECTION, WORKSPACES_PER_CLIENT_PER_HOUR } from "@gadgets/workshop-shared/limits";
import { newWorkspaceToken, workspaceIdFor } from "../storage/ids.ts";
import { clientWorkspaces } from "./client-limits.ts";
import type { Connection } from "./connection.ts";
import { authenticate } from "./credentials.ts";
import { checkDiskForWrite } from "./disk-guard.ts";
import { PublicRecordTarget, PublicShareTarget } from "./public-share.ts";
import { register } from "./registry.ts";
import { SessionTarget } from "./session-target.ts";
import { loadShare } from "./share-links.ts";
import { codedError } from "@gadgets/workshop-shared/errors";
import { codedStub } from "../storage/coded-errors.ts";

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
    const store = codedStub(this.connection.env.WORKSPACES.get(this.connection.env.WORKSPACES.idFromName(workspaceId)));
    await store.initialize(workspaceId);
    await register(this.connection.env, "workspace", workspaceId, "");
    return { workspaceId, token };
  }

  /** Takes the workspace token or an API key (credentials.ts); a key's session is scoped (session-scope.ts). */
  async getSession(credential: string): Promise<SessionTarget> {
    const { connection } = this;
    const auth = await authenticate(connection.env, connection.client, credential, connection);
    // A malformed credential is a TypeError, as a bad argument is.
    if (!auth.ok) throw codedError(auth.code, auth.message, auth.code === "INVALID_TOKEN" ? TypeError : Error);
    connection.reserve("sessions", auth.workspaceId, auth.access.kind === "key" ? auth.access.keyId : undefined);
    const session = new SessionTarget(connection, auth.workspaceId, auth.store, auth.settings, auth.access);
    // The person is about to run something: the first run should not wait for the executor's setup.
    connection.executor.prepare?.();
    return session;
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
