/**
 * The workspace's `meta` table: the mark that the workspace was created, and its settings.
 */

import type { WorkspaceSettings } from "@gadgets/workshop-shared/api";
import { DEFAULT_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";
import type { SealedSecret } from "../secret-crypto.ts";

/** A workspace's own npm registry as stored: its URL and its token, sealed (never in clear). */
export interface StoredRegistry {
  url: string;
  token?: SealedSecret;
}

/** What a workspace runs with until its settings are changed. */
export const DEFAULT_SETTINGS: WorkspaceSettings = { runTimeoutMs: DEFAULT_RUN_TIMEOUT_MS, fetchHosts: null };

export class SettingsTable {
  constructor(private readonly sql: SqlStorage) {}

  /** Marks the workspace as created (once; a second call changes nothing). */
  markCreated(workspaceId: string): void {
    this.sql.exec(
      "INSERT OR IGNORE INTO meta (key, value) VALUES ('workspace_id', ?), ('created_at', ?)",
      workspaceId,
      String(Date.now()),
    );
  }

  /** The workspace's id, as it was created with (undefined before). */
  workspaceId(): string | undefined {
    return this.#value("workspace_id");
  }

  isCreated(): boolean {
    return this.sql.exec("SELECT 1 FROM meta WHERE key = 'workspace_id'").toArray().length > 0;
  }

  get(): WorkspaceSettings {
    const timeout = this.#value("run_timeout_ms");
    const hosts = this.#value("fetch_hosts");
    return {
      runTimeoutMs: timeout ? Number(timeout) : DEFAULT_SETTINGS.runTimeoutMs,
      fetchHosts: hosts ? (JSON.parse(hosts) as string[] | null) : DEFAULT_SETTINGS.fetchHosts,
    };
  }

  /** `changes` were validated by the caller. */
  update(changes: Partial<WorkspaceSettings>): WorkspaceSettings {
    if (changes.runTimeoutMs !== undefined) this.#set("run_timeout_ms", String(changes.runTimeoutMs));
    if (changes.fetchHosts !== undefined) this.#set("fetch_hosts", JSON.stringify(changes.fetchHosts));
    return this.get();
  }

  /** The workspace's own npm registry (its token sealed by the Worker), or undefined for the Workshop's default. */
  registry(): StoredRegistry | undefined {
    const url = this.#value("registry_url");
    if (!url) return undefined;
    const token = this.#value("registry_token");
    return { url, ...(token ? { token: JSON.parse(token) as SealedSecret } : {}) };
  }

  /** Sets (or, with undefined, clears) the workspace's registry; the token arrives sealed. */
  setRegistry(registry: StoredRegistry | undefined): void {
    this.sql.exec("DELETE FROM meta WHERE key IN ('registry_url', 'registry_token')");
    if (!registry) return;
    this.#set("registry_url", registry.url);
    if (registry.token) this.#set("registry_token", JSON.stringify(registry.token));
  }

  #value(key: string): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  }

  #set(key: string, value: string): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  }
}
