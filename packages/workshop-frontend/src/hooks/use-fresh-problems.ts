import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useMemo, useState } from "react";
import { freshProblems, type SeenCounts, seenCounts } from "../problems/problems.ts";
import type { RunState } from "../runs/run-state.ts";
import { problemsKey, useProblems } from "./use-problems.ts";

/**
 * The workspace's problems, and which are new or came back since the person last looked (`looking`:
 * the Problems view is open, which marks everything seen). A failed run is a problem at once, not at
 * the next poll.
 */
export function useFreshProblems(looking: boolean, runState: RunState) {
  const problems = useProblems();
  const queryClient = useQueryClient();
  const [seen, setSeen] = useState<SeenCounts>();

  useEffect(() => {
    if (problems.data && (seen === undefined || looking)) setSeen(seenCounts(problems.data));
  }, [problems.data, seen, looking]);

  useEffect(() => {
    if (runState.status === "done" && runState.outcome.status === "error")
      void queryClient.invalidateQueries({ queryKey: problemsKey });
  }, [runState, queryClient]);

  const fresh = useMemo(
    () => new Set(problems.data && seen ? freshProblems(problems.data, seen).map((group) => group.fingerprint) : []),
    [problems.data, seen],
  );
  return { groups: problems.data, fresh };
}
