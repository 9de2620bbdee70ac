/**
 * Test results kept in a workspace: the last run of each draft's tests, and the results each agent
 * version was published with. Its tables come from the workspace's migrations (workspace-schema.ts).
 */

import type { TestStatus } from "@gadgets/workshop-shared/api";

export class TestStatusTable {
  constructor(private readonly sql: SqlStorage) {}

  saveForDraft(draftId: string, status: TestStatus): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO draft_tests (draft_id, status) VALUES (?, ?)",
      draftId,
      JSON.stringify(status),
    );
  }

  forDraft(draftId: string): TestStatus | null {
    const row = this.sql
      .exec<{ status: string }>("SELECT status FROM draft_tests WHERE draft_id = ?", draftId)
      .toArray()[0];
    return row ? (JSON.parse(row.status) as TestStatus) : null;
  }

  deleteForDraft(draftId: string): void {
    this.sql.exec("DELETE FROM draft_tests WHERE draft_id = ?", draftId);
  }

  saveForAgent(agentId: string, version: number, status: TestStatus): void {
    this.sql.exec(
      "INSERT OR REPLACE INTO agent_version_tests (agent_id, version, status) VALUES (?, ?, ?)",
      agentId,
      version,
      JSON.stringify(status),
    );
  }

  forAgent(agentId: string, version: number): TestStatus | undefined {
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
