import { useCallback, useState } from "react";
import type { JsonValue, TestCaseResult } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { type PublishedVersion, publishedText, publishStep } from "../drafts/publish-flow.ts";
import { errorMessage } from "../error-message.ts";
import { parsePayload } from "../runs/payload.ts";
import { shareLink } from "../sharing/share-link.ts";
import type { Notice } from "../toasts/toast-store.ts";
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

/** What the publish dialogs show: the published version, or the failing tests that held it back. */
export type PublishView =
  | { kind: "published"; version: PublishedVersion; testsOverridden: boolean; payload: JsonValue }
  | {
      kind: "tests-failed";
      message: string;
      /** The failing cases with their diffs, once the tests ran again to show them. */
      failing:
        | { status: "loading" }
        | { status: "ready"; results: TestCaseResult[] }
        | { status: "failed"; message: string };
    };

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
  notify(notice: Notice | string | undefined): void;
}) {
  const { connection } = useWorkshop();
  const { publish } = useDraftMutations();
  /** The share the share dialog shows. */
  const [sharedId, setSharedId] = useState<string>();
  const [publishView, setPublishView] = useState<PublishView>();

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

  const publishOnce = async (overrideTests: boolean) => {
    if (!editor) return;
    const draftId = editor.draftId;
    const payload = parsePayload(payloadText);
    const step = await publishStep(
      (override) => publish.mutateAsync({ draftId, overrideTests: override }),
      overrideTests,
    );
    if (step.status === "failed") return notify(step.message);
    if (step.status === "published") {
      notify({ tone: "info", text: publishedText(step) });
      return setPublishView({ ...step, kind: "published", payload: payload.ok ? payload.value : null });
    }
    // The refusal names the failing cases; their diffs come from running the tests again.
    setPublishView({ kind: "tests-failed", message: step.message, failing: { status: "loading" } });
    try {
      const summary = await (await connection.ready()).runTests(draftId);
      const results =
        summary.status === "invalid" ? [] : summary.results.filter((result) => result.status === "failed");
      setPublishView({ kind: "tests-failed", message: step.message, failing: { status: "ready", results } });
    } catch (error) {
      const failing = { status: "failed" as const, message: errorMessage(error) };
      setPublishView({ kind: "tests-failed", message: step.message, failing });
    }
  };

  const publishDraft = async () => {
    if (!editor) return;
    await editor.saveNow();
    await publishOnce(false);
  };

  return {
    sharedId,
    closeShareDialog: () => setSharedId(undefined),
    shareDraft,
    shareRun,
    publishDraft,
    publishView,
    /** "Publish anyway — recorded": the version then says in the catalog that its tests failed. */
    publishAnyway: () => void publishOnce(true),
    closePublish: () => setPublishView(undefined),
  };
}
