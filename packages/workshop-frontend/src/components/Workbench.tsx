import { useCallback, useEffect, useMemo, useState } from "react";
import { Group, Panel, Separator } from "react-resizable-panels";
import {
  appendTestCase,
  caseFromRun,
  checkManifest,
  MANIFEST_PATH,
  type StackFrame,
  TESTS_PATH,
} from "@gadgets/workshop-shared";
import { formatSource } from "../editor/format.ts";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import { useDraft, useDraftMutations } from "../hooks/use-drafts.ts";
import { useDraftEditor, useEditorSnapshot } from "../hooks/use-draft-editor.ts";
import { useRun } from "../hooks/use-run.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { CodeEditor } from "./CodeEditor.tsx";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { DocsDialog } from "./DocsDialog.tsx";
import { DraftList } from "./DraftList.tsx";
import { FileTree } from "./FileTree.tsx";
import { GrantsPanel } from "./GrantsPanel.tsx";
import { ManifestForm } from "./ManifestForm.tsx";
import { parsePayload, RunPanel } from "./RunPanel.tsx";
import { ShareDialog } from "./ShareDialog.tsx";
import { ACTIVE_DRAFT_KEY } from "./SharePage.tsx";
import { ConnectionBadge, SaveBadge } from "./StatusBadges.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { FileTabs } from "./FileTabs.tsx";
import { RunTracePanel } from "./RunTracePanel.tsx";
import { TestsPanel } from "./TestsPanel.tsx";

const resizer = "w-1 bg-zinc-200 hover:bg-sky-400 data-[separator=active]:bg-sky-500 dark:bg-zinc-800";
const resizerRow = "h-1 bg-zinc-200 hover:bg-sky-400 dark:bg-zinc-800";

/** The IDE: drafts and files | editor | run panel and console. */
export function Workbench() {
  const [theme, toggleTheme] = useTheme();
  const [draftId, setDraftId] = useState<string | undefined>(
    () => window.localStorage.getItem(ACTIVE_DRAFT_KEY) ?? undefined,
  );
  const draft = useDraft(draftId);
  const editor = useDraftEditor(draft.data);
  const { files, state: saveState } = useEditorSnapshot(editor);
  const [activePath, setActivePath] = useState("index.ts");
  const [reveal, setReveal] = useState<{ path: string; line: number; column: number }>();
  const [payload, setPayload] = useState<{ draftId: string | undefined; text: string }>({
    draftId: undefined,
    text: "",
  });
  const payloadText = payload.draftId === draftId ? payload.text : "";
  const setPayloadText = useCallback((text: string) => setPayload({ draftId, text }), [draftId]);
  const [notice, setNotice] = useState<string>();
  const { publish } = useDraftMutations();
  const { connection } = useWorkshop();
  const [shared, setShared] = useState<string>();
  const [docs, setDocs] = useState<"help" | "catalog">();

  /** Shares something and shows its link (copied to the clipboard when the page may). */
  const share = useCallback(async (make: () => Promise<string>) => {
    try {
      const link = `${window.location.origin}${await make()}`;
      await navigator.clipboard?.writeText(link).catch(() => undefined);
      setNotice(`Link: ${link}`);
    } catch (error) {
      setNotice(error instanceof Error ? error.message : String(error));
    }
  }, []);

  const manifest = useMemo(() => checkManifest(files), [files]);
  const name = manifest.ok ? manifest.value.name : (draft.data?.name ?? "gadget");
  const { state: runState, run, cancel } = useRun(editor, name);

  useEffect(() => {
    if (draftId) window.localStorage.setItem(ACTIVE_DRAFT_KEY, draftId);
    else window.localStorage.removeItem(ACTIVE_DRAFT_KEY);
  }, [draftId]);

  // A fresh draft: open its entry and fill the payload from the manifest's example.
  useEffect(() => {
    if (!draft.data) return;
    const opened = checkManifest(draft.data.files);
    setActivePath(opened.ok ? opened.value.entry : MANIFEST_PATH);
    const stored = window.localStorage.getItem(`workshop.payload.${draft.data.id}`);
    setPayload({
      draftId: draft.data.id,
      text: stored ?? JSON.stringify(opened.ok ? (opened.value.exampleInput ?? {}) : {}, null, 2),
    });
  }, [draft.data]);

  // Remembered per draft, once it was loaded for that draft (never the previous draft's text).
  useEffect(() => {
    if (payload.draftId) window.localStorage.setItem(`workshop.payload.${payload.draftId}`, payload.text);
  }, [payload]);

  useEffect(() => {
    if (draft.isError) setDraftId(undefined);
  }, [draft.isError]);

  const startRun = useCallback(() => {
    const payload = parsePayload(payloadText);
    if (!payload.ok) {
      setNotice(payload.error);
      return;
    }
    setNotice(undefined);
    void run(payload.value);
  }, [payloadText, run]);

  const saveAndFormat = useCallback(async () => {
    if (!editor) return;
    const file = editor.file(activePath);
    if (file) {
      try {
        editor.update(file.path, await formatSource(file.path, file.content));
      } catch (error) {
        setNotice(`Not formatted: ${error instanceof Error ? error.message.split("\n")[0] : String(error)}`);
      }
    }
    await editor.saveNow();
  }, [editor, activePath]);

  // Ctrl/Cmd+Enter runs and Ctrl/Cmd+S saves from anywhere on the page, not only inside the editor.
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey)) return;
      if (event.key === "Enter") {
        event.preventDefault();
        startRun();
      } else if (event.key === "s") {
        event.preventDefault();
        void saveAndFormat();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [startRun, saveAndFormat]);

  const openFrame = useCallback((frame: StackFrame) => {
    setActivePath(frame.file);
    setReveal({ path: frame.file, line: frame.line, column: frame.column });
  }, []);

  /** A finished run's input and outcome become a new case in the test file, opened for editing. */
  const saveAsTest = useCallback(
    async (runId: string) => {
      if (!editor) return;
      try {
        const record = await (await connection.ready()).getRun(runId);
        const next = appendTestCase(editor.files, caseFromRun("case", record.payload, record.outcome));
        if (!next.ok) return setNotice(next.error);
        if (editor.file(TESTS_PATH)) editor.update(TESTS_PATH, next.value);
        else editor.addFile(TESTS_PATH, next.value);
        setActivePath(TESTS_PATH);
        setNotice(`Added a test case to ${TESTS_PATH}; edit its name and expectations there.`);
      } catch (error) {
        setNotice(error instanceof Error ? error.message : String(error));
      }
    },
    [editor, connection],
  );

  const envTypes = useMemo(() => gadgetEnvTypes(manifest.ok ? (manifest.value.grants ?? {}) : {}), [manifest]);
  const dark = theme === "dark";

  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex items-center gap-3 border-b border-zinc-200 px-3 py-1.5 dark:border-zinc-800">
        <h1 className="font-semibold">Gadget Workshop</h1>
        {draft.data && <span className="text-sm text-zinc-500">{name}</span>}
        <SaveBadge state={saveState} />
        <div className="ml-auto flex items-center gap-3">
          {editor && (
            <button
              type="button"
              className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800"
              onClick={() =>
                void share(async () => {
                  const payload = parsePayload(payloadText);
                  if (!payload.ok) throw new Error(payload.error);
                  await editor.saveNow();
                  const { shareId } = await (await connection.ready()).shareDraft(editor.draftId, payload.value);
                  setShared(shareId);
                  return `/s/${shareId}`;
                })
              }
            >
              Share
            </button>
          )}
          {editor && (
            <button
              type="button"
              className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800"
              onClick={async () => {
                await editor.saveNow();
                const published = (version: { name: string; version: number; agentId: string }, note = "") =>
                  setNotice(`Published ${version.name} v${version.version} — agent id ${version.agentId}${note}`);
                try {
                  published(await publish.mutateAsync({ draftId: editor.draftId }));
                } catch (error) {
                  const message = error instanceof Error ? error.message : String(error);
                  // Failing tests: the person may publish anyway, and the version says so.
                  if (!/was not published/.test(message) || !window.confirm(`${message}\n\nPublish anyway?`))
                    return setNotice(message);
                  try {
                    published(
                      await publish.mutateAsync({ draftId: editor.draftId, overrideTests: true }),
                      " (tests overridden)",
                    );
                  } catch (again) {
                    setNotice(again instanceof Error ? again.message : String(again));
                  }
                }
              }}
            >
              Publish
            </button>
          )}
          <button
            type="button"
            className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={() => setDocs("catalog")}
          >
            Catalog
          </button>
          <button
            type="button"
            className="rounded px-2 py-0.5 text-sm hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={() => setDocs("help")}
          >
            Help
          </button>
          <ConnectionBadge />
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </div>
      </header>
      {saveState?.status === "conflict" && editor && (
        <div
          className="flex items-center gap-3 bg-red-50 px-3 py-1 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          role="alert"
          data-testid="conflict"
        >
          <span className="flex-1">{saveState.message}</span>
          <button
            type="button"
            className="rounded border border-current px-2"
            onClick={() => void editor.resolveConflict("mine")}
          >
            Keep mine
          </button>
          <button
            type="button"
            className="rounded border border-current px-2"
            onClick={() => void editor.resolveConflict("theirs")}
          >
            Take theirs
          </button>
        </div>
      )}
      {notice && (
        <div
          className="flex items-center gap-2 bg-sky-50 px-3 py-1 text-sm dark:bg-sky-950"
          role="status"
          data-testid="notice"
        >
          <span className="flex-1 break-all">{notice}</span>
          <button type="button" onClick={() => setNotice(undefined)} aria-label="Dismiss">
            ×
          </button>
        </div>
      )}
      {docs && <DocsDialog view={docs} onClose={() => setDocs(undefined)} />}
      {shared && (
        <ShareDialog shareId={shared} files={files.map((file) => file.path)} onClose={() => setShared(undefined)} />
      )}
      <Group orientation="horizontal" className="min-h-0 flex-1">
        <Panel defaultSize="18" minSize="10" className="overflow-auto">
          <DraftList activeId={draftId} onOpen={setDraftId} />
          {editor && (
            <>
              <FileTree editor={editor} files={files} active={activePath} onOpen={setActivePath} />
              <ManifestForm editor={editor} files={files} />
              <GrantsPanel editor={editor} files={files} />
            </>
          )}
        </Panel>
        <Separator className={resizer} />
        <Panel defaultSize="47" minSize="20" className="flex flex-col">
          {editor ? (
            <>
              <FileTabs paths={files.map((file) => file.path)} active={activePath} onSelect={setActivePath} />
              <div className="min-h-0 flex-1">
                <CodeEditor
                  files={files}
                  activePath={files.some((f) => f.path === activePath) ? activePath : MANIFEST_PATH}
                  theme={theme}
                  envTypes={envTypes}
                  onChange={(path, content) => editor.update(path, content)}
                  onRun={startRun}
                  onSave={() => void saveAndFormat()}
                  reveal={reveal}
                />
              </div>
            </>
          ) : (
            <div className="m-auto max-w-sm p-6 text-center text-sm text-zinc-500">
              {draftId
                ? "Opening the draft…"
                : "Create a draft from a template (Drafts → + new…) to start. Press Ctrl+Enter to run it."}
            </div>
          )}
        </Panel>
        <Separator className={resizer} />
        <Panel defaultSize="35" minSize="20">
          <Group orientation="vertical">
            <Panel defaultSize="30" minSize="15">
              {editor ? (
                <RunPanel
                  draftId={editor.draftId}
                  payloadText={payloadText}
                  onPayloadText={setPayloadText}
                  state={runState}
                  onRun={startRun}
                  onCancel={() => void cancel()}
                  onShareRun={(runId) =>
                    void share(async () => `/r/${(await (await connection.ready()).shareRun(runId)).recordId}`)
                  }
                  onSaveAsTest={(runId) => void saveAsTest(runId)}
                  dark={dark}
                />
              ) : null}
            </Panel>
            {editor && (
              <>
                <Separator className={resizerRow} />
                <Panel defaultSize="12" minSize="6">
                  <TestsPanel editor={editor} files={files} onOpenFile={setActivePath} />
                </Panel>
                <Separator className={resizerRow} />
                {/* Its own panel, so a trace arriving after the run never moves the console under the pointer. */}
                <Panel defaultSize="14" minSize="6" className="overflow-auto">
                  <RunTracePanel runId={runState.status === "done" ? runState.outcome.runId : undefined} />
                </Panel>
              </>
            )}
            <Separator className={resizerRow} />
            <Panel defaultSize="44" minSize="15">
              <ConsolePanel dark={dark} onOpenFrame={openFrame} />
            </Panel>
          </Group>
        </Panel>
      </Group>
    </div>
  );
}
