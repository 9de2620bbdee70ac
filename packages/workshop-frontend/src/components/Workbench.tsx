import { useCallback, useEffect, useMemo, useState } from "react";
import { Group, Panel, Separator } from "react-resizable-panels";
import { checkManifest, type GadgetFile, MANIFEST_PATH } from "@gadgets/workshop-shared";
import { filesFromTemplate } from "../drafts/templates.ts";
import { formatAndSave } from "../editor/format-and-save.ts";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import type { EditorCommands } from "../editor/monaco-view.tsx";
import { errorMessage } from "../error-message.ts";
import { useDraftEditor, useEditorSnapshot } from "../hooks/use-draft-editor.ts";
import { useDraftMutations } from "../hooks/use-drafts.ts";
import { useFileNavigation } from "../hooks/use-file-navigation.ts";
import { useFirstVisit, useWelcomeFocus } from "../hooks/use-first-visit.ts";
import { useFreshProblems } from "../hooks/use-fresh-problems.ts";
import { useOpenDraft } from "../hooks/use-open-draft.ts";
import { usePayload } from "../hooks/use-payload.ts";
import { useRun } from "../hooks/use-run.ts";
import { useSaveAsTest } from "../hooks/use-save-as-test.ts";
import { useShareActions } from "../hooks/use-share-actions.ts";
import { useShortcuts } from "../hooks/use-shortcuts.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { declaredInputSchema } from "../runs/input-schema.ts";
import { parsePayload } from "../runs/payload.ts";
import { ConflictBanner, NoticeBanner, WelcomeBanner } from "./Banners.tsx";
import { CodeEditor, preloadEditor } from "./CodeEditor.tsx";
import { ConflictDialog } from "./ConflictDialog.tsx";
import { ConnectDialog } from "./ConnectDialog.tsx";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { DocsDialog } from "./DocsDialog.tsx";
import { DraftList } from "./DraftList.tsx";
import { FileTabs } from "./FileTabs.tsx";
import { FileTree } from "./FileTree.tsx";
import { GrantsPanel } from "./GrantsPanel.tsx";
import { ManifestForm } from "./ManifestForm.tsx";
import { NoDraft } from "./NoDraft.tsx";
import { type OutputTab, OutputTabs } from "./OutputTabs.tsx";
import { ProblemsPanel } from "./ProblemsPanel.tsx";
import { RunPanel } from "./RunPanel.tsx";
import { RunsDialog } from "./RunsDialog.tsx";
import { RunTracePanel } from "./RunTracePanel.tsx";
import { ShareDialog } from "./ShareDialog.tsx";
import { ShortcutSheet } from "./ShortcutSheet.tsx";
import { QuotaStatus, StatusBar } from "./StatusBar.tsx";
import { TestsPanel } from "./TestsPanel.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { ToolButton } from "./ToolButton.tsx";

const resizer = "w-px bg-zinc-200 hover:bg-sky-400 data-[separator=active]:bg-sky-500 dark:bg-zinc-800";
const resizerRow = "h-px bg-zinc-200 hover:bg-sky-400 dark:bg-zinc-800";

/** The IDE: drafts and files | editor | run panel and console. */
export function Workbench() {
  const [theme, toggleTheme] = useTheme();
  useEffect(preloadEditor, []);
  const { draftId, setDraftId, draft } = useOpenDraft();
  const editor = useDraftEditor(draft.data);
  const { files, state: saveState } = useEditorSnapshot(editor);
  const { activePath, setActivePath, reveal, openAt, openFrame, openProblemFrame } = useFileNavigation(
    draft.data,
    draftId,
    setDraftId,
  );
  const { text: payloadText, setText: setPayloadText } = usePayload(draftId, draft.data);
  const [notice, setNotice] = useState<string>();
  const [docs, setDocs] = useState<"help" | "catalog">();
  const [shortcuts, setShortcuts] = useState(false);
  const [connecting, setConnecting] = useState(false);
  const [listingRuns, setListingRuns] = useState(false);
  const [merging, setMerging] = useState(false);
  const [commands, setCommands] = useState<EditorCommands>();
  const [outputTab, setOutputTab] = useState<OutputTab>("console");
  const firstVisit = useFirstVisit(draftId, setDraftId);
  useWelcomeFocus(firstVisit.welcome, commands);

  const manifest = useMemo(() => checkManifest(files), [files]);
  const manifestText = files.find((file) => file.path === MANIFEST_PATH)?.content;
  // Read again only when the manifest's text changes: validation caches its work per schema object.
  const inputSchema = useMemo(
    () => declaredInputSchema(manifestText === undefined ? [] : [{ path: MANIFEST_PATH, content: manifestText }]),
    [manifestText],
  );
  const name = manifest.ok ? manifest.value.name : (draft.data?.name ?? "gadget");
  const { state: runState, run, cancel } = useRun(editor, name);
  const problems = useFreshProblems(outputTab === "problems", runState);
  const { create } = useDraftMutations();
  const actions = useShareActions({ editor, payloadText, notify: setNotice });
  const saveAsTest = useSaveAsTest(editor, { notify: setNotice, openFile: setActivePath });

  const startRun = useCallback(() => {
    const payload = parsePayload(payloadText);
    if (!payload.ok) return setNotice(payload.error);
    setNotice(undefined);
    void run(payload.value);
  }, [payloadText, run]);

  const saveAndFormat = useCallback(async () => {
    if (!editor) return;
    const failed = await formatAndSave(editor, activePath);
    if (failed) setNotice(failed);
  }, [editor, activePath]);

  useShortcuts({ run: startRun, save: () => void saveAndFormat(), "shortcut-sheet": () => setShortcuts(true) });

  const resolveMerged = useCallback(
    (merged: GadgetFile[]) => {
      setMerging(false);
      void editor?.resolveConflict({ merged });
    },
    [editor],
  );

  const createFromTemplate = async (templateId: string) => {
    const templateFiles = filesFromTemplate(templateId);
    if (!templateFiles) return;
    try {
      setDraftId((await create.mutateAsync(templateFiles)).id);
    } catch (error) {
      setNotice(errorMessage(error));
    }
  };

  const envTypes = useMemo(() => gadgetEnvTypes(manifest.ok ? (manifest.value.grants ?? {}) : {}), [manifest]);
  const dark = theme === "dark";
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
    [draftId, setDraftId, editor, files, activePath, setActivePath],
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
        <h1 className="flex shrink-0 items-center gap-1.5 pr-2 font-semibold whitespace-nowrap">
          <span className="inline-block h-3 w-3 rotate-45 rounded-sm bg-sky-500" aria-hidden="true" />
          {/* Spelled out only where the toolbar's labels leave room for it and the draft's name. */}
          <span className="sr-only xl:not-sr-only">Gadget Workshop</span>
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
                onClick={actions.shareDraft}
              />
              <ToolButton
                icon="publish"
                label="Publish"
                tooltip="Publish as an agent your backend can call"
                onClick={() => void actions.publishDraft()}
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
            icon="plug"
            label="Connect"
            tooltip="Connect an MCP client (Claude, Cursor, VS Code, your code) to the published agents"
            onClick={() => setConnecting(true)}
          />
          <ToolButton
            icon="history"
            label="Runs"
            tooltip="Recent runs of this workspace: from the IDE, the API and MCP clients"
            onClick={() => setListingRuns(true)}
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
      {firstVisit.welcome && <WelcomeBanner onHelp={() => setDocs("help")} onDismiss={firstVisit.dismiss} />}
      {saveState?.status === "conflict" && editor && (
        <ConflictBanner state={saveState} editor={editor} onCompare={() => setMerging(true)} />
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
      {notice && <NoticeBanner notice={notice} onDismiss={() => setNotice(undefined)} />}
      {docs && <DocsDialog view={docs} onClose={() => setDocs(undefined)} />}
      {shortcuts && <ShortcutSheet onClose={() => setShortcuts(false)} />}
      {connecting && <ConnectDialog onClose={() => setConnecting(false)} />}
      {listingRuns && (
        <RunsDialog onClose={() => setListingRuns(false)} onShownInConsole={() => setOutputTab("console")} />
      )}
      {actions.sharedId && (
        <ShareDialog
          shareId={actions.sharedId}
          files={files.map((file) => file.path)}
          onClose={actions.closeShareDialog}
        />
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
                  onOpenFile={openAt}
                  onReady={setCommands}
                  reveal={reveal}
                />
              </div>
            </>
          ) : draftId ? (
            <p className="m-auto text-sm text-zinc-500">Opening the draft…</p>
          ) : (
            <NoDraft onTemplate={(templateId) => void createFromTemplate(templateId)} />
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
                  onShareRun={actions.shareRun}
                  onSaveAsTest={(runId) => void saveAsTest(runId)}
                  dark={dark}
                  inputSchema={inputSchema}
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
              <OutputTabs
                tab={outputTab}
                onTab={setOutputTab}
                problemCount={problems.groups?.length ?? 0}
                freshCount={problems.fresh.size}
              />
              <div className="min-h-0 flex-1">
                {outputTab === "console" ? (
                  consolePanel
                ) : (
                  <ProblemsPanel
                    groups={problems.groups}
                    fresh={problems.fresh}
                    onOpenFrame={openProblemFrame}
                    onOpenRun={actions.openRunRecord}
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
