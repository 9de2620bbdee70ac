import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Draft, DraftSummary, GadgetFile } from "@gadgets/workshop-shared";
import { usageKey } from "./use-usage.ts";
import { useConnectionState, useWorkshop } from "./workshop-context.tsx";

export const draftsKey = ["drafts"] as const;

/** The workspace's drafts, newest first. */
export function useDrafts() {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  return useQuery({
    queryKey: draftsKey,
    enabled: state.status === "connected",
    queryFn: async (): Promise<DraftSummary[]> => (await connection.ready()).listDrafts(),
  });
}

export function useDraft(draftId: string | undefined) {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  return useQuery({
    queryKey: ["draft", draftId],
    enabled: state.status === "connected" && draftId !== undefined,
    // An open draft is owned by its editor: no background refetch that could replace typed text.
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
    // Dropped as soon as no editor shows it: reopening a draft loads what was saved since.
    gcTime: 0,
    queryFn: async (): Promise<Draft> => (await connection.ready()).openDraft(draftId ?? ""),
  });
}

export function useDraftMutations() {
  const { connection } = useWorkshop();
  const queryClient = useQueryClient();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: usageKey });
    return queryClient.invalidateQueries({ queryKey: draftsKey });
  };
  return {
    create: useMutation({
      mutationFn: async (files: GadgetFile[]) => (await connection.ready()).createDraft({ files }),
      onSuccess: refresh,
    }),
    remove: useMutation({
      mutationFn: async (draftId: string) => (await connection.ready()).deleteDraft(draftId),
      onSuccess: refresh,
    }),
    publish: useMutation({
      mutationFn: async ({ draftId, overrideTests }: { draftId: string; overrideTests?: boolean }) =>
        (await connection.ready()).publishDraft(draftId, overrideTests ? { overrideTests } : undefined),
      onSuccess: () => queryClient.invalidateQueries({ queryKey: ["agents"] }),
    }),
  };
}
