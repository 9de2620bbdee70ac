import { useCallback, useState } from "react";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { publishWithTests } from "../drafts/publish-flow.ts";
import { parsePayload } from "../runs/payload.ts";
import { shareLink } from "../sharing/share-link.ts";
import { useDraftMutations } from "./use-drafts.ts";
import { useWorkshop } from "./workshop-context.tsx";

/** The page's origin for links, and its clipboard when it has one. */
function linkPage() {
  const clipboard = navigator.clipboard;
  return {
    origin: window.location.origin,
    ...(clipboard ? { copy: (text: string) => clipboard.writeText(text) } : {}),
  };
}

/**
 * The IDE's ways out: share the draft (read-only link and embed), share a run's record or open it,
 * publish as an agent. Each says how it went through `notify`.
 */
export function useShareActions({
  editor,
  payloadText,
  notify,
}: {
  editor: DraftEditor | undefined;
  payloadText: string;
  notify(notice: string | undefined): void;
}) {
  const { connection } = useWorkshop();
  const { publish } = useDraftMutations();
  /** The share the share dialog shows. */
  const [sharedId, setSharedId] = useState<string>();

  const share = useCallback((make: () => Promise<string>) => void shareLink(make, linkPage()).then(notify), [notify]);

  const shareDraft = () =>
    share(async () => {
      if (!editor) throw new Error("Open a draft first.");
      const payload = parsePayload(payloadText);
      if (!payload.ok) throw new Error(payload.error);
      await editor.saveNow();
      const { shareId } = await (await connection.ready()).shareDraft(editor.draftId, payload.value);
      setSharedId(shareId);
      return `/s/${shareId}`;
    });

  const shareRun = useCallback(
    (runId: string) => share(async () => `/r/${(await (await connection.ready()).shareRun(runId)).recordId}`),
    [share, connection],
  );

  const openRunRecord = useCallback(
    (runId: string) =>
      share(async () => {
        const { recordId } = await (await connection.ready()).shareRun(runId);
        window.open(`/r/${recordId}`, "_blank", "noopener");
        return `/r/${recordId}`;
      }),
    [share, connection],
  );

  const publishDraft = async () => {
    if (!editor) return;
    await editor.saveNow();
    notify(
      await publishWithTests(
        (overrideTests) => publish.mutateAsync({ draftId: editor.draftId, overrideTests }),
        (refusal) => window.confirm(`${refusal}\n\nPublish anyway?`),
      ),
    );
  };

  return {
    sharedId,
    closeShareDialog: () => setSharedId(undefined),
    shareDraft,
    shareRun,
    openRunRecord,
    publishDraft,
  };
}
