/**
 * Test results kept in a workspace: the last run of each draft's tests, and the results each agent
 * version was published with. Own tables, created on first use, so workspaces made before tests
 * existed get them too.
 */

import type { TestStatus } from "@gadgets/workshop-shared/api";

const SCHEMA = `
CREATE TABLE IF NOT EXISTS draft_tests (draft_id TEXT PRIMARY KEY, status TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS agent_version_tests (
  agent_id TEXT NOT NULL, version INTEGER NOT NULL, status TEXT NOT NULL, PRIMARY KEY (agent_id, version));
`;

export class TestStatusTable {
  #ready = false;

  constructor(private readonly sql: SqlStorage) {}

  #ensure(): void {
    if (this.#ready) return;
    this.sql.exec(SCHEMA);
    this.#ready = true;
  }

  saveForDraft(draftId: string, status: TestStatus): void {
    this.#ensure();
    this.sql.exec(
      "INSERT OR REPLACE INTO draft_tests (draft_id, status) VALUES (?, ?)",
      draftId,
      JSON.stringify(status),
    );
  }

  forDraft(draftId: string): TestStatus | null {
    this.#ensure();
    const row = this.sql
      .exec<{ status: string }>("SELECT status FROM draft_tests WHERE draft_id = ?", draftId)
      .toArray()[0];
    return row ? (JSON.parse(row.status) as TestStatus) : null;
  }

  deleteForDraft(draftId: string): void {
    this.#ensure();
    this.sql.exec("DELETE FROM draft_tests WHERE draft_id = ?", draftId);
  }

  saveForAgent(agentId: string, version: number, status: TestStatus): void {
    this.#ensure();
    this.sql.exec(
      "INSERT OR REPLACE INTO agent_version_tests (agent_id, version, status) VALUES (?, ?, ?)",
      agentId,
      version,
      JSON.stringify(status),
    );
  }

  forAgent(agentId: string, version: number): TestStatus | undefined {
    this.#ensure();
    const row = this.sql
      .exec<{ status: string }>(
        "SELECT status FROM agent_version_tests WHERE agent_id = ? AND version = ?",
        agentId,
        version,
      )
      .toArray()[0];
    return row ? (JSON.parse(row.status) as TestStatus) : undefined;
  }
}
