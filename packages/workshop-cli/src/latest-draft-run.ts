/**
 * The latest run of a draft's saved version: the run `gadgets share` links a record of. The draft's own
 * runs are asked for, not the workspace's latest, where a busy agent (a schedule, an endpoint) could push
 * it past the list's limit.
 */

import { MAX_LIST_LIMIT, type RunSummary, type Session } from "@gadgets/workshop-shared";

export async function latestDraftRun(
  session: Pick<Session, "listRuns">,
  draft: { draftId: string; version: number },
): Promise<RunSummary | undefined> {
  const runs = await session.listRuns(MAX_LIST_LIMIT, { draft: draft.draftId });
  // Newest first. A version number names files only within its own draft, so both are compared.
  return runs.find(
    (run) =>
      run.source.kind === "draft" && run.source.draftId === draft.draftId && run.source.version === draft.version,
  );
}
