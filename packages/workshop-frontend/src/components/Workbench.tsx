import { useQueryClient } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { Group, Panel, Separator } from "react-resizable-panels";
import {
  appendTestCase,
  caseFromRun,
  checkManifest,
  type GadgetFile,
  MANIFEST_PATH,
  type StackFrame,
  TESTS_PATH,
} from "@gadgets/workshop-shared";
import type { EditorCommands } from "../editor/monaco-view.tsx";
import { freshProblems, type Problem, type SeenCounts, seenCounts } from "../problems/problems.ts";
import { useFirstVisit } from "../hooks/use-first-visit.ts";
import { problemsKey, useProblems } from "../hooks/use-problems.ts";
import { formatSource } from "../editor/format.ts";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import { useDraft, useDraftMutations } from "../hooks/use-drafts.ts";
import { useDraftEditor, useEditorSnapshot } from "../hooks/use-draft-editor.ts";
import { useRun } from "../hooks/use-run.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { CodeEditor, preloadEditor } from "./CodeEditor.tsx";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { DocsDialog } from "./DocsDialog.tsx";
import { DraftList } from "./DraftList.tsx";
import { FileTree } from "./FileTree.tsx";
import { GrantsPanel } from "./GrantsPanel.tsx";
import { ManifestForm } from "./ManifestForm.tsx";
import { parsePayload } from "../runs/payload.ts";
import { RunPanel } from "./RunPanel.tsx";
import { ShareDialog } from "./ShareDialog.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { ConflictDialog } from "./ConflictDialog.tsx";
import { FileTabs } from "./FileTabs.tsx";
import { Icon } from "./Icon.tsx";
import { ProblemsPanel } from "./ProblemsPanel.tsx";
import { RunTracePanel } from "./RunTracePanel.tsx";
import { TestsPanel } from "./TestsPanel.tsx";
import { ShortcutSheet } from "./ShortcutSheet.tsx";
import { QuotaStatus, StatusBar } from "./StatusBar.tsx";
import { ToolButton } from "./ToolButton.tsx";
import { TEMPLATES } from "../drafts/templates.ts";
import { STORAGE_KEYS } from "../storage-keys.ts";
import { usePayload } from "../hooks/use-payload.ts";

const resizer = "w-px bg-zinc-200 hover:bg-sky-400 data-[separator=active]:bg-sky-500 dark:bg-zinc-800";
const resizerRow = "h-px bg-zinc-200 hover:bg-sky-400 dark:bg-zinc-800";

/** Where a keypress lands in something that takes text (then `?` is a character, not the shortcut sheet). */
const typingInto = (target: EventTarget | null) =>
  target instanceof HTMLElement &&
  (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || !!target.closest(".monaco-editor"));

/** The IDE: drafts and files | editor | run panel and console. */
export function Workbench() {
  const [theme, toggleTheme] = useTheme();
  useEffect(preloadEditor, []);
  const [draftId, setDraftId] = useState<string | undefined>(
    () => window.localStorage.getItem(STORAGE_KEYS.activeDraft) ?? undefined,
  );
  const draft = useDraft(draftId);
  const editor = useDraftEditor(draft.data);
  const { files, state: saveState } = useEditorSnapshot(editor);
  const [activePath, setActivePath] = useState("index.ts");
  const [reveal, setReveal] = useState<{ path: string; line: number; column: number }>();
  const { text: payloadText, setText: setPayloadText } = usePayload(draftId, draft.data);
  const [notice, setNotice] = useState<string>();
  const { publish } = useDraftMutations();
  const { connection } = useWorkshop();
  const [shared, setShared] = useState<string>();
  const [docs, setDocs] = useState<"help" | "catalog">();
  const [shortcuts, setShortcuts] = useState(false);
  const [merging, setMerging] = useState(false);
  const [commands, setCommands] = useState<EditorCommands>();
  const [bottomTab, setBottomTab] = useState<"console" | "problems">("console");
  // A problem's frame in another draft: applied when that draft has opened.
  const pendingFrame = useRef<{ draftId: string; frame: StackFrame }>(undefined);
  const queryClient = useQueryClient();
  const problems = useProblems();
  const [seen, setSeen] = useState<SeenCounts>();
  const firstVisit = useFirstVisit(draftId, setDraftId);
  // The first visit's example opens with the cursor in its code, so typing and Ctrl+Enter work at once.
  const focusedExample = useRef(false);
  useEffect(() => {
    if (!firstVisit.welcome || !commands || focusedExample.current) return;
    focusedExample.current = true;
    commands.focus();
  }, [firstVisit.welcome, commands]);

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
    if (draftId) window.localStorage.setItem(STORAGE_KEYS.activeDraft, draftId);
    else window.localStorage.removeItem(STORAGE_KEYS.activeDraft);
  }, [draftId]);

  // A fresh draft: open its entry (or the file of a stack frame that was clicked on the way here).
  useEffect(() => {
    if (!draft.data) return;
    const opened = checkManifest(draft.data.files);
    const pending = pendingFrame.current?.draftId === draft.data.id ? pendingFrame.current.frame : undefined;
    setActivePath(pending?.file ?? (opened.ok ? opened.value.entry : MANIFEST_PATH));
    if (pending) {
      setReveal({ path: pending.file, line: pending.line, column: pending.column });
      pendingFrame.current = undefined;
    }
  }, [draft.data]);

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
      if (event.key === "?" && !event.ctrlKey && !event.metaKey && !typingInto(event.target)) {
        event.preventDefault();
        setShortcuts(true);
        return;
      }
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

  // Problems: what arrived since the person last looked is marked and announced; looking marks it seen.
  useEffect(() => {
    if (problems.data && (seen === undefined || bottomTab === "problems")) setSeen(seenCounts(problems.data));
  }, [problems.data, seen, bottomTab]);
  const fresh = useMemo(
    () => new Set(problems.data && seen ? freshProblems(problems.data, seen).map((group) => group.fingerprint) : []),
    [problems.data, seen],
  );
  // A failed run is a problem at once, not at the next poll.
  useEffect(() => {
    if (runState.status === "done" && runState.outcome.status === "error")
      void queryClient.invalidateQueries({ queryKey: problemsKey });
  }, [runState, queryClient]);
  const openProblemFrame = useCallback(
    (problem: Problem, frame: StackFrame) => {
      if (problem.sourceKind === "draft" && problem.sourceId && problem.sourceId !== draftId) {
        pendingFrame.current = { draftId: problem.sourceId, frame };
        setDraftId(problem.sourceId);
        return;
      }
      openFrame(frame);
    },
    [draftId, openFrame],
  );
  const openRunRecord = useCallback(
    (runId: string) =>
      void share(async () => {
        const { recordId } = await (await connection.ready()).shareRun(runId);
        window.open(`/r/${recordId}`, "_blank", "noopener");
        return `/r/${recordId}`;
      }),
    [share, connection],
  );
  const resolveMerged = useCallback(
    (merged: GadgetFile[]) => {
      setMerging(false);
      void editor?.resolveConflict({ merged });
    },
    [editor],
  );

  const envTypes = useMemo(() => gadgetEnvTypes(manifest.ok ? (manifest.value.grants ?? {}) : {}), [manifest]);
  const dark = theme === "dark";

  const shareDraft = () =>
    void share(async () => {
      if (!editor) throw new Error("Open a draft first.");
      const payload = parsePayload(payloadText);
      if (!payload.ok) throw new Error(payload.error);
      await editor.saveNow();
      const { shareId } = await (await connection.ready()).shareDraft(editor.draftId, payload.value);
      setShared(shareId);
      return `/s/${shareId}`;
    });
  const publishDraft = async () => {
    if (!editor) return;
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
        published(await publish.mutateAsync({ draftId: editor.draftId, overrideTests: true }), " (tests overridden)");
      } catch (again) {
        setNotice(again instanceof Error ? again.message : String(again));
      }
    }
  };
  const createFromTemplate = async (templateId: string) => {
    const template = TEMPLATES.find((t) => t.id === templateId);
    if (!template) return;
    try {
      const created = await (await connection.ready()).createDraft({
        files: template.files(`${template.id}-${Math.random().toString(36).slice(2, 6)}`),
      });
      void queryClient.invalidateQueries({ queryKey: ["drafts"] });
      setDraftId(created.id);
    } catch (error) {
      setNotice(error instanceof Error ? error.message : String(error));
    }
  };
  const freshCount = fresh.size;
  // Run status events re-render the Workbench while a run starts; the parts they do not touch are kept.
  const sidebar = useMemo(
    () => (
      <>
        <DraftList activeId={draftId} onOpen={setDraftId} />
        {editor && (
          <>
            <FileTree editor={editor} files={files} active={activePath} onOpen={setActivePath} />
            <ManifestForm editor={editor} files={files} />
            <GrantsPanel editor={editor} files={files} />
          </>
        )}
      </>
    ),
    [draftId, editor, files, activePath],
  );
  const consolePanel = useMemo(
    () => (
      <ConsolePanel
        dark={dark}
        onOpenFrame={openFrame}
        hideTitle
        emptyHint="Console output appears here while the gadget runs: press Ctrl+Enter. console.log values can be expanded; an error's stack frames open the line."
      />
    ),
    [dark, openFrame],
  );

  return (
    <div className="flex h-screen min-h-0 flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex h-10 shrink-0 items-center gap-1 border-b border-zinc-200 bg-zinc-50 px-2 dark:border-zinc-800 dark:bg-zinc-900">
        <h1 className="flex items-center gap-1.5 pr-2 font-semibold">
          <span className="inline-block h-3 w-3 rotate-45 rounded-sm bg-sky-500" aria-hidden="true" />
          <span className="hidden sm:inline">Gadget Workshop</span>
        </h1>
        {draft.data && (
          <span className="truncate border-l border-zinc-300 pl-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            {name}
          </span>
        )}
        <nav className="ml-auto flex items-center gap-0.5" aria-label="Toolbar">
          {editor && (
            <>
              <ToolButton
                icon="format"
                label="Format"
                tooltip="Format the file with Prettier and save"
                shortcut="Ctrl+S"
                onClick={() => void saveAndFormat()}
              />
              <ToolButton
                icon="share"
                label="Share"
                tooltip="Share a read-only link and an embed snippet"
                onClick={shareDraft}
              />
              <ToolButton
                icon="publish"
                label="Publish"
                tooltip="Publish as an agent your backend can call"
                onClick={() => void publishDraft()}
              />
              <span className="mx-1 h-5 w-px bg-zinc-300 dark:bg-zinc-700" aria-hidden="true" />
              <ToolButton
                icon="palette"
                label="Commands"
                tooltip="Command palette: every editor command"
                shortcut="F1"
                onClick={() => commands?.runAction("editor.action.quickCommand")}
                disabled={!commands}
              />
            </>
          )}
          <ToolButton
            icon="keyboard"
            label="Shortcuts"
            tooltip="Keyboard shortcuts"
            shortcut="?"
            onClick={() => setShortcuts(true)}
          />
          <ToolButton
            icon="catalog"
            label="Catalog"
            tooltip="Published agents and their docs"
            onClick={() => setDocs("catalog")}
          />
          <ToolButton
            icon="book"
            label="Help"
            tooltip="The gadget contract and capabilities"
            onClick={() => setDocs("help")}
          />
          <ThemeToggle theme={theme} onToggle={toggleTheme} />
        </nav>
      </header>
      {firstVisit.welcome && (
        <div
          className="flex items-center gap-2 border-b border-sky-200 bg-sky-50 px-3 py-1 text-sm text-sky-950 dark:border-sky-900 dark:bg-sky-950 dark:text-sky-100"
          role="status"
          data-testid="welcome"
        >
          <span className="flex-1">
            A <strong>gadget</strong> is a small TypeScript agent: its <code>run(payload, env)</code> returns a result.
            Press <kbd className="font-mono">Ctrl+Enter</kbd> to run this one, or read{" "}
            <button type="button" className="underline" onClick={() => setDocs("help")}>
              the gadget contract
            </button>
            .
          </span>
          <button type="button" onClick={firstVisit.dismiss} aria-label="Dismiss the welcome">
            ×
          </button>
        </div>
      )}
      {saveState?.status === "conflict" && editor && (
        <div
          className="flex flex-wrap items-center gap-2 bg-red-50 px-3 py-1 text-sm text-red-900 dark:bg-red-950 dark:text-red-100"
          role="alert"
          data-testid="conflict"
        >
          <span className="flex-1">{saveState.message}</span>
          <button
            type="button"
            className="flex items-center gap-1 rounded bg-red-700 px-2 text-white"
            onClick={() => setMerging(true)}
          >
            <Icon name="merge" className="h-3.5 w-3.5" />
            Compare and merge…
          </button>
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
      {merging && saveState?.status === "conflict" && (
        <ConflictDialog
          mine={files}
          theirs={saveState.theirs.files}
          theirVersion={saveState.theirs.version}
          theme={theme}
          onMerged={resolveMerged}
          onClose={() => setMerging(false)}
        />
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
      {shortcuts && <ShortcutSheet onClose={() => setShortcuts(false)} />}
      {shared && (
        <ShareDialog shareId={shared} files={files.map((file) => file.path)} onClose={() => setShared(undefined)} />
      )}
      <Group orientation="horizontal" className="min-h-0 flex-1">
        <Panel defaultSize="18" minSize="12" className="overflow-auto bg-zinc-50/60 dark:bg-zinc-900/40">
          {sidebar}
        </Panel>
        <Separator className={resizer} />
        <Panel defaultSize="47" minSize="25" className="flex flex-col">
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
                  onOpenFile={(path, line, column) => {
                    setActivePath(path);
                    setReveal({ path, line, column });
                  }}
                  onReady={setCommands}
                  reveal={reveal}
                />
              </div>
            </>
          ) : draftId ? (
            <p className="m-auto text-sm text-zinc-500">Opening the draft…</p>
          ) : (
            <div
              className="m-auto max-w-sm space-y-3 p-6 text-sm text-zinc-600 dark:text-zinc-400"
              data-testid="no-draft"
            >
              <p>
                A <strong>gadget</strong> is a small TypeScript agent:{" "}
                <code>export default {"{ run(payload, env) }"}</code>. Open a draft on the left, or start from a
                template:
              </p>
              <div className="flex flex-wrap gap-2">
                {TEMPLATES.map((template) => (
                  <button
                    key={template.id}
                    type="button"
                    title={template.description}
                    className="rounded border border-zinc-300 px-2 py-1 hover:border-sky-500 dark:border-zinc-700"
                    onClick={() => void createFromTemplate(template.id)}
                  >
                    {template.title}
                  </button>
                ))}
              </div>
              <p>Then press Ctrl+Enter to run it. Help has the contract; ? lists the shortcuts.</p>
            </div>
          )}
        </Panel>
        <Separator className={resizer} />
        <Panel defaultSize="35" minSize="22">
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
              ) : (
                <p className="p-3 text-xs text-zinc-500">The payload and the result of a run show here.</p>
              )}
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
            <Panel defaultSize="44" minSize="15" className="flex flex-col">
              <div
                className="flex shrink-0 items-center gap-1 border-b border-zinc-200 px-1 text-xs dark:border-zinc-800"
                role="tablist"
                aria-label="Output"
              >
                <button
                  type="button"
                  role="tab"
                  aria-selected={bottomTab === "console"}
                  className={`flex items-center gap-1 px-2 py-1 ${bottomTab === "console" ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-500"}`}
                  onClick={() => setBottomTab("console")}
                >
                  <Icon name="terminal" className="h-3.5 w-3.5" />
                  Console
                </button>
                <button
                  type="button"
                  role="tab"
                  aria-selected={bottomTab === "problems"}
                  className={`flex items-center gap-1 px-2 py-1 ${bottomTab === "problems" ? "border-b-2 border-sky-500 font-semibold" : "text-zinc-500"}`}
                  onClick={() => setBottomTab("problems")}
                  data-testid="problems-tab"
                >
                  <Icon name="problem" className="h-3.5 w-3.5" />
                  Problems
                  {(problems.data?.length ?? 0) > 0 && (
                    <span
                      className={`rounded-full px-1.5 tabular-nums ${freshCount > 0 ? "bg-amber-400 text-amber-950" : "bg-zinc-200 dark:bg-zinc-700"}`}
                      title={freshCount > 0 ? `${freshCount} new or happened again` : undefined}
                    >
                      {freshCount > 0 ? `${freshCount} new` : problems.data?.length}
                    </span>
                  )}
                </button>
              </div>
              <p className="sr-only" aria-live="polite">
                {freshCount > 0 ? `${freshCount} new problems` : ""}
              </p>
              <div className="min-h-0 flex-1">
                {bottomTab === "console" ? (
                  consolePanel
                ) : (
                  <ProblemsPanel
                    groups={problems.data}
                    fresh={fresh}
                    onOpenFrame={openProblemFrame}
                    onOpenRun={openRunRecord}
                  />
                )}
              </div>
            </Panel>
          </Group>
        </Panel>
      </Group>
      <StatusBar runState={runState} saveState={editor ? saveState : undefined}>
        <QuotaStatus />
      </StatusBar>
    </div>
  );
}
