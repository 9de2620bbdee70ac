/**
 * The workspace's `meta` table: the mark that the workspace was created, and its settings.
 */

import type { WorkspaceSettings } from "@gadgets/workshop-shared/api";
import { DEFAULT_RUN_TIMEOUT_MS } from "@gadgets/workshop-shared/limits";

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

  #value(key: string): string | undefined {
    return this.sql.exec<{ value: string }>("SELECT value FROM meta WHERE key = ?", key).toArray()[0]?.value;
  }

  #set(key: string, value: string): void {
    this.sql.exec("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", key, value);
  }
}
