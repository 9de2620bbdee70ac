/**
 * The workspace's HTTP endpoints (`triggers.http`): which agent each `/h/<endpoint>` runs. An agent
 * keeps one unguessable id for good (its endpoint whenever its manifest picks no name, the same across
 * versions) and every name it published with; the one its latest version declares is `active`, and
 * only an active endpoint answers. The Directory knows which workspace each endpoint belongs to.
 */

import type { GadgetTriggers } from "@gadgets/workshop-shared/api";
import { MAX_ENDPOINT_NAMES_PER_WORKSPACE } from "@gadgets/workshop-shared/limits";
import { randomId } from "./ids.ts";

export type EndpointResponseMode = "json" | "full";
type HttpTrigger = NonNullable<GadgetTriggers["http"]>;

/** An active endpoint: the agent it runs and how it answers. */
export interface ActiveEndpoint {
  endpoint: string;
  agentId: string;
  response: EndpointResponseMode;
}

/** Why a name cannot be an agent's endpoint in this workspace. */
export type NameRefusal =
  | { reason: "agent"; agentName: string }
  | { reason: "id" }
  | { reason: "too-many"; held: number };

type Row = { endpoint: string; agent_id: string; named: number; active: number; response: string };

export class EndpointTable {
  constructor(private readonly sql: SqlStorage) {}

  /**
   * Whether agent `agentId` (undefined: not published yet) may take `name`: not when another agent's
   * latest version answers on it, never an agent's unguessable id, and not past the workspace's count
   * of names. A name another agent of this workspace used before and dropped may be taken over.
   */
  nameRefusal(name: string, agentId: string | undefined): NameRefusal | undefined {
    const row = this.#row(name);
    if (row && row.agent_id !== agentId) {
      if (!row.named) return { reason: "id" };
      if (row.active) {
        const holder = this.sql
          .exec<{ name: string }>("SELECT name FROM agents WHERE id = ?", row.agent_id)
          .toArray()[0];
        return { reason: "agent", agentName: holder?.name ?? row.agent_id };
      }
    }
    if (row) return undefined;
    const held = this.sql.exec<{ n: number }>("SELECT COUNT(*) AS n FROM endpoints WHERE named = 1").one().n;
    return held >= MAX_ENDPOINT_NAMES_PER_WORKSPACE ? { reason: "too-many", held } : undefined;
  }

  /**
   * Makes the endpoint `http` declares the agent's active one (or none, without `http`), and returns it.
   * The caller checked the name with `nameRefusal` in the same turn of the object.
   */
  activate(agentId: string, http: HttpTrigger | undefined, now: number): string | undefined {
    this.sql.exec("UPDATE endpoints SET active = 0 WHERE agent_id = ? AND active = 1", agentId);
    if (!http) return undefined;
    const response: EndpointResponseMode = http.response ?? "json";
    let endpoint = http.name;
    if (endpoint === undefined) {
      endpoint =
        this.sql
          .exec<{ endpoint: string }>("SELECT endpoint FROM endpoints WHERE agent_id = ? AND named = 0", agentId)
          .toArray()[0]?.endpoint ?? randomId();
    }
    this.sql.exec(
      `INSERT INTO endpoints (endpoint, agent_id, named, active, response, created_at) VALUES (?, ?, ?, 1, ?, ?)
       ON CONFLICT (endpoint) DO UPDATE SET agent_id = excluded.agent_id, active = 1, response = excluded.response`,
      endpoint,
      agentId,
      http.name === undefined ? 0 : 1,
      response,
      now,
    );
    return endpoint;
  }

  /** The active endpoint by its path segment; undefined when none answers there. */
  resolve(endpoint: string): ActiveEndpoint | undefined {
    const row = this.#row(endpoint);
    return row?.active ? active(row) : undefined;
  }

  /** Every active endpoint: one per agent whose latest version declares `triggers.http`. */
  list(): ActiveEndpoint[] {
    return this.sql
      .exec<Row>("SELECT * FROM endpoints WHERE active = 1 ORDER BY created_at, endpoint")
      .toArray()
      .map(active);
  }

  #row(endpoint: string): Row | undefined {
    return this.sql.exec<Row>("SELECT * FROM endpoints WHERE endpoint = ?", endpoint).toArray()[0];
  }
}

const active = (row: Row): ActiveEndpoint => ({
  endpoint: row.endpoint,
  agentId: row.agent_id,
  response: row.response === "full" ? "full" : "json",
});
