import { useMemo } from "react";
import { checkManifest, type ShareSnapshot } from "@gadgets/workshop-shared";
import { useDocumentTitle } from "../hooks/use-document-title.ts";
import { useForkShare } from "../hooks/use-fork-share.ts";
import { usePublicLink } from "../hooks/use-public-api.ts";
import { useSharedRun } from "../hooks/use-shared-run.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { declaredInputSchema } from "../runs/input-schema.ts";
import { forkSecretsNotice } from "../sharing/fork-secrets.ts";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { FORK_SECRETS_NOTE_ID, ForkSecretsNote } from "./ForkSecretsNote.tsx";
import { Icon } from "./Icon.tsx";
import { NotFound } from "./NotFound.tsx";
import { ReadOnlyCode } from "./ReadOnlyCode.tsx";
import { RunPanel } from "./RunPanel.tsx";
import { SharedTests } from "./SharedTests.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";

/** `/s/<id>`: a shared gadget, read-only, with Run (anonymous) and Fork (into the visitor's workspace). */
export function SharePage({ shareId }: { shareId: string }) {
  const [theme, toggleTheme] = useTheme();
  const {
    link: share,
    value: snapshot,
    missing,
  } = usePublicLink(
    shareId,
    (client, id) => client.api.openShare(id),
    (opened) => opened.snapshot() as Promise<ShareSnapshot>,
  );
  const run = useSharedRun(share, snapshot);
  const { forking, fork } = useForkShare(shareId, run.fail);
  useDocumentTitle(snapshot?.name);
  const inputSchema = useMemo(() => declaredInputSchema(snapshot?.files ?? []), [snapshot]);
  const secretsNotice = useMemo(() => forkSecretsNotice(snapshot?.files ?? []), [snapshot]);

  // "Open in Workshop" from an embed arrives with ?fork=1. Forking writes to the visitor's workspace,
  // so it waits for their click: any site can link here, and a link must not change anything.
  const offerFork = new URLSearchParams(window.location.search).get("fork") === "1";

  if (missing) return <NotFound message={missing} />;
  if (!snapshot || !share)
    return <p className="p-6 text-sm text-zinc-600 dark:text-zinc-400">Opening the shared gadget…</p>;

  const manifest = checkManifest(snapshot.files);
  const dark = theme === "dark";
  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex flex-wrap items-center gap-x-3 gap-y-1 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <a href="/" className="font-semibold">
          Gadget Workshop
        </a>
        <h1 className="text-sm">
          <bdi>{snapshot.name}</bdi>
        </h1>
        <span className="truncate text-xs text-zinc-600 dark:text-zinc-400">{snapshot.description}</span>
        <span className="text-xs text-zinc-600 dark:text-zinc-400" title="Fork it to edit your own copy">
          read-only · fork to edit
        </span>
        <div className="ml-auto flex items-center gap-2">
          <button
            type="button"
            className="flex items-center gap-1 rounded bg-sky-700 px-3 py-0.5 text-sm text-white hover:bg-sky-800 disabled:opacity-50"
            disabled={forking}
            onClick={() => void fork()}
            title="Copy this gadget into your own workspace to edit and run it"
            aria-describedby={secretsNotice ? FORK_SECRETS_NOTE_ID : undefined}
          >
            <Icon name="fork" className="h-3.5 w-3.5" />
            {forking ? "Forking…" : "Fork"}
          </button>
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </div>
      </header>
      {secretsNotice && <ForkSecretsNote text={secretsNotice} />}
      {offerFork && (
        <div className="flex items-center gap-3 bg-sky-50 px-3 py-1.5 text-sm dark:bg-sky-950" role="status">
          <span className="flex-1">
            Open “<bdi>{snapshot.name}</bdi>” in your own workspace to edit and run it freely.
          </span>
          <button
            type="button"
            className="rounded bg-sky-700 px-3 py-0.5 text-white disabled:opacity-50"
            disabled={forking}
            onClick={() => void fork()}
            aria-describedby={secretsNotice ? FORK_SECRETS_NOTE_ID : undefined}
          >
            Fork and open
          </button>
        </div>
      )}
      {/* Side by side on a wide window, stacked on a phone. */}
      <main className="flex min-h-0 flex-1 flex-col md:flex-row">
        <div className="min-h-0 min-w-0 flex-[3] border-b border-zinc-200 md:border-r md:border-b-0 dark:border-zinc-800">
          <ReadOnlyCode
            files={snapshot.files}
            entry={manifest.ok ? manifest.value.entry : "gadget.json"}
            theme={theme}
            readOnlyMessage="This shared gadget is read-only. Fork it to edit your own copy."
          />
        </div>
        <div className="flex min-w-0 flex-[2] flex-col">
          <SharedTests files={snapshot.files} status={snapshot.tests} />
          <div className="h-2/5 min-h-0 border-b border-zinc-200 dark:border-zinc-800">
            <RunPanel
              draftId={`share-${shareId}`}
              payloadText={run.payloadText}
              onPayloadText={run.setPayloadText}
              state={run.state}
              onRun={() => void run.run()}
              onCancel={run.cancel}
              dark={dark}
              presets={false}
              inputSchema={inputSchema}
            />
          </div>
          <div className="min-h-0 flex-1">
            <ConsolePanel dark={dark} onOpenFrame={() => {}} />
          </div>
        </div>
      </main>
    </div>
  );
}
