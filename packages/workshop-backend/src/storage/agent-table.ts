/**
 * A workspace's published agents: one per draft it was published from, each publish a new immutable
 * version (files and grants) charged to the workspace's quota under `versions`.
 */

import type {
  AgentSchemas,
  AgentSummary,
  AgentVersion,
  Draft,
  GadgetFile,
  GadgetGrants,
  GadgetManifest,
  TestStatus,
} from "@gadgets/workshop-shared/api";
import { byteLength, checkManifest } from "@gadgets/workshop-shared/validate";
import { LRUCache } from "lru-cache";
import { randomId } from "./ids.ts";
import type { TestStatusTable } from "./test-status-table.ts";
import type { UsageTable } from "./usage-table.ts";
import { storeError } from "./coded-errors.ts";

/** An agent's docs as listed in the catalog. */
const MAX_AGENT_DOCS_CHARS = 64 * 1024;

/** What the runner needs to execute a published agent version. */
export interface ResolvedAgent {
  agentId: string;
  /** The draft it was published from: the scope of its kv, the same for every version. */
  draftId: string;
  version: number;
  name: string;
  files: GadgetFile[];
}

type Resolved = ResolvedAgent & { meta: AgentVersion };

/** Which version of which agent: what confirms a guessed version of the latest. */
export interface AgentRef {
  agentId: string;
  version: number;
}

/** Memory a resolved agent holds, for caches bounded by size: its files (JavaScript strings: UTF-16). */
export function resolvedAgentBytes(agent: ResolvedAgent): number {
  return Math.max(
    1,
    agent.files.reduce((sum, file) => sum + file.content.length * 2, 0),
  );
}

/** Resolved versions kept in memory per workspace object, by the size of their files (UTF-16). */
const RESOLVED_CACHE_BYTES = 8 * 1024 * 1024;
const MAX_CACHED_AGENTS = 1024;

/** The schemas a manifest declares, each only when it declares it. */
function schemasIn(manifest: GadgetManifest): AgentSchemas {
  const { inputSchema, outputSchema } = manifest;
  return { ...(inputSchema ? { inputSchema } : {}), ...(outputSchema ? { outputSchema } : {}) };
}

/** A version's schemas as its runs check them: none when its manifest declares none (or does not check). */
function schemasOf(files: readonly GadgetFile[]): AgentSchemas {
  const manifest = checkManifest(files);
  return manifest.ok ? schemasIn(manifest.value) : {};
}

/** Schemas of listed versions kept in memory, by their size as JSON: a version never changes. */
const SCHEMAS_CACHE_BYTES = 4 * 1024 * 1024;

type VersionRow = {
  agent_id: string;
  version: number;
  name: string;
  description: string;
  files: string;
  grants: string;
  published_at: number;
};

export class AgentTable {
  /**
   * Every agent's draft and latest version, and resolved versions. This object is the only writer of
   * its tables, and a version never changes once published, so what is kept here is never stale: a run
   * of an agent reads no SQL and parses no files once its version has been resolved.
   */
  readonly #latest = new Map<string, { draftId: string; latestVersion: number }>();
  readonly #resolved = new LRUCache<string, Resolved>({
    max: MAX_CACHED_AGENTS,
    maxSize: RESOLVED_CACHE_BYTES,
    sizeCalculation: resolvedAgentBytes,
  });
  readonly #schemas = new LRUCache<string, AgentSchemas>({
    max: MAX_CACHED_AGENTS,
    maxSize: SCHEMAS_CACHE_BYTES,
    sizeCalculation: (schemas) => Math.max(1, JSON.stringify(schemas).length),
  });

  constructor(
    private readonly sql: SqlStorage,
    private readonly usage: UsageTable,
    private readonly tests: TestStatusTable,
  ) {}

  /**
   * Publishes the draft as it is given. With `tested`, only that version of it (the one whose tests
   * ran), and the new agent version records the results.
   */
  publish(draft: Draft, tested?: { version: number; tests: TestStatus }): AgentVersion {
    if (tested && tested.version !== draft.version)
      throw new Error(
        `Draft "${draft.name}" was saved again (version ${draft.version}) while the tests of version ${tested.version} ran; nothing was published. Publish again to test and publish the new version.`,
      );
    const manifest = checkManifest(draft.files);
    if (!manifest.ok)
      throw storeError("INVALID_ARGUMENT", `Draft "${draft.name}" cannot be published: ${manifest.error}`);
    const now = Date.now();
    const description = manifest.value.description ?? "";
    const grants: GadgetGrants = manifest.value.grants ?? {};
    const filesText = JSON.stringify(draft.files);
    const grantsText = JSON.stringify(grants);
    const bytes = byteLength(filesText) + byteLength(grantsText);
    this.usage.ensureRoom(bytes);
    let agent = this.sql
      .exec<{ id: string; latest_version: number }>(
        "SELECT id, latest_version FROM agents WHERE draft_id = ?",
        draft.id,
      )
      .toArray()[0];
    if (!agent) {
      agent = { id: randomId(), latest_version: 0 };
      this.sql.exec(
        "INSERT INTO agents (id, draft_id, name, description, latest_version, updated_at) VALUES (?, ?, ?, ?, 0, ?)",
        agent.id,
        draft.id,
        manifest.value.name,
        description,
        now,
      );
    }
    const version = agent.latest_version + 1;
    this.sql.exec(
      "INSERT INTO agent_versions (agent_id, version, name, description, files, grants, published_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
      agent.id,
      version,
      manifest.value.name,
      description,
      filesText,
      grantsText,
      now,
    );
    this.usage.grow("versions", bytes);
    this.sql.exec(
      "UPDATE agents SET name = ?, description = ?, latest_version = ?, updated_at = ? WHERE id = ?",
      manifest.value.name,
      description,
      version,
      now,
      agent.id,
    );
    if (tested) this.tests.saveForAgent(agent.id, version, tested.tests);
    // Last, once every write above went through: the next run of the agent sees this version.
    this.#latest.set(agent.id, { draftId: draft.id, latestVersion: version });
    return {
      agentId: agent.id,
      name: manifest.value.name,
      version,
      description,
      publishedAt: now,
      grants,
      ...schemasIn(manifest.value),
      ...(tested ? { tests: tested.tests } : {}),
    };
  }

  /** The agent published from the draft, if any (an agent keeps its id across versions). */
  agentIdOf(draftId: string): string | undefined {
    return this.sql.exec<{ id: string }>("SELECT id FROM agents WHERE draft_id = ?", draftId).toArray()[0]?.id;
  }

  /** Whether an agent was published from the draft (its kv is then still in use). */
  publishedFrom(draftId: string): boolean {
    return this.sql.exec("SELECT 1 FROM agents WHERE draft_id = ?", draftId).toArray().length > 0;
  }

  list(): AgentSummary[] {
    return this.sql
      .exec<{
        id: string;
        name: string;
        description: string;
        latest_version: number;
        draft_id: string;
        updated_at: number;
        files: string;
        grants: string;
      }>(
        "SELECT a.*, v.files, v.grants FROM agents a JOIN agent_versions v ON v.agent_id = a.id AND v.version = a.latest_version ORDER BY a.updated_at DESC",
      )
      .toArray()
      .map((row) => {
        const files = JSON.parse(row.files) as GadgetFile[];
        const docs = files.find((file) => /^(README|AGENTS)\.md$/i.test(file.path))?.content ?? "";
        const tests = this.tests.forAgent(row.id, row.latest_version);
        const key = `${row.id}@${row.latest_version}`;
        const schemas = this.#schemas.get(key) ?? schemasOf(files);
        this.#schemas.set(key, schemas);
        return {
          agentId: row.id,
          name: row.name,
          description: row.description,
          latestVersion: row.latest_version,
          draftId: row.draft_id,
          updatedAt: row.updated_at,
          grants: JSON.parse(row.grants) as GadgetGrants,
          docs: docs.slice(0, MAX_AGENT_DOCS_CHARS),
          ...schemas,
          ...(tests ? { tests } : {}),
        };
      });
  }

  /** By name (a published agent's manifest name), latest or a fixed version. */
  resolveByName(name: string, version: number | undefined): (ResolvedAgent & { meta: AgentVersion }) | undefined {
    const agentId = this.#idByName(name);
    return agentId ? this.resolve(agentId, version) : undefined;
  }

  /** The version a run of the latest of `agentId` would run now, without the version's files and schemas. */
  latestRef(agentId: string): AgentRef | undefined {
    const agent = this.#latestOf(agentId);
    return agent ? { agentId, version: agent.latestVersion } : undefined;
  }

  latestRefByName(name: string): AgentRef | undefined {
    const agentId = this.#idByName(name);
    return agentId ? this.latestRef(agentId) : undefined;
  }

  /** The agent a name means: of those that bear it, the one published last. */
  #idByName(name: string): string | undefined {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM agents WHERE name = ? ORDER BY updated_at DESC LIMIT 1", name)
      .toArray()[0]?.id;
  }

  /**
   * The agents an id or a name means to the invocation log: the agent of that id, or every agent of that
   * name (agents published from different drafts may share one). Empty when there is none.
   */
  idsFor(ref: string): string[] {
    return this.sql
      .exec<{ id: string }>("SELECT id FROM agents WHERE id = ?1 OR name = ?1", ref)
      .toArray()
      .map((row) => row.id);
  }

  resolve(agentId: string, version: number | undefined): Resolved | undefined {
    // This runs before every run of an agent: from memory once known, else two lookups by primary key.
    // (A join of the two tables was planned anew on every call — the bound id takes part in its plan.)
    const agent = this.#latestOf(agentId);
    if (!agent) return undefined;
    const wanted = version ?? agent.latestVersion;
    const key = `${agentId}@${wanted}`;
    const known = this.#resolved.get(key);
    if (known) return known;
    const row = this.sql
      .exec<VersionRow>("SELECT * FROM agent_versions WHERE agent_id = ? AND version = ?", agentId, wanted)
      .toArray()[0];
    if (!row) return undefined;
    const tests = this.tests.forAgent(row.agent_id, row.version);
    const files = JSON.parse(row.files) as GadgetFile[];
    const resolved: Resolved = {
      agentId: row.agent_id,
      draftId: agent.draftId,
      version: row.version,
      name: row.name,
      files,
      meta: {
        agentId: row.agent_id,
        name: row.name,
        version: row.version,
        description: row.description,
        publishedAt: row.published_at,
        grants: JSON.parse(row.grants) as GadgetGrants,
        ...schemasOf(files),
        ...(tests ? { tests } : {}),
      },
    };
    this.#resolved.set(key, resolved);
    return resolved;
  }

  #latestOf(agentId: string): { draftId: string; latestVersion: number } | undefined {
    const known = this.#latest.get(agentId);
    if (known) return known;
    const row = this.sql
      .exec<{ draft_id: string; latest_version: number }>(
        "SELECT draft_id, latest_version FROM agents WHERE id = ?",
        agentId,
      )
      .toArray()[0];
    if (!row) return undefined;
    if (this.#latest.size >= MAX_CACHED_AGENTS) this.#latest.clear();
    const latest = { draftId: row.draft_id, latestVersion: row.latest_version };
    this.#latest.set(agentId, latest);
    return latest;
  }
}
