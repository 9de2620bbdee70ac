import type { RunListFilter, RunSource, RunSummary } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { latestDraftRun } from "./latest-draft-run.ts";

const summary = (runId: string, source: RunSource, startedAt: number): RunSummary => ({
  runId,
  source,
  name: "echo",
  status: "ok",
  startedAt,
  totalMs: 1,
});

/** A workspace's run log as `listRuns` answers it: newest first, narrowed by the filter, at most `limit`. */
function workspaceWith(runs: RunSummary[]) {
  return {
    listRuns: async (limit?: number | null, filter?: RunListFilter | null) =>
      runs
        .filter((run) => !filter?.draft || (run.source.kind === "draft" && run.source.draftId === filter.draft))
        .sort((a, b) => b.startedAt - a.startedAt)
        .slice(0, limit ?? 50),
  };
}

describe("latestDraftRun", () => {
  const draft = { draftId: "d1", version: 3 };

  it("picks the newest run of the draft's version, not an older one of it or one of another draft", async () => {
    const session = workspaceWith([
      summary("older", { kind: "draft", draftId: "d1", version: 3 }, 1),
      summary("newest", { kind: "draft", draftId: "d1", version: 3 }, 2),
      summary("other-draft", { kind: "draft", draftId: "d2", version: 3 }, 3),
      summary("agent", { kind: "agent", agentId: "a1", version: 3 }, 4),
    ]);
    expect((await latestDraftRun(session, draft))?.runId).toBe("newest");
  });

  it("finds it behind more runs of other gadgets than one list holds", async () => {
    const busy = Array.from({ length: 500 }, (_, i) =>
      summary(`scheduled${i}`, { kind: "agent", agentId: "a1", version: 1 }, 10 + i),
    );
    const session = workspaceWith([summary("mine", { kind: "draft", draftId: "d1", version: 3 }, 1), ...busy]);
    expect((await latestDraftRun(session, draft))?.runId).toBe("mine");
  });

  it("finds none when only other versions ran", async () => {
    const session = workspaceWith([summary("before", { kind: "draft", draftId: "d1", version: 2 }, 1)]);
    expect(await latestDraftRun(session, draft)).toBeUndefined();
  });
});
