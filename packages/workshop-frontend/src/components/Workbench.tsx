import { useCallback, useEffect, useMemo, useState } from "react";
import { Group, Panel, Separator } from "react-resizable-panels";
import { checkManifest, type GadgetFile, MANIFEST_PATH, type StackFrame, TESTS_PATH } from "@gadgets/workshop-shared";
import { filesFromTemplate } from "../drafts/templates.ts";
import { formatAndSave } from "../editor/format-and-save.ts";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import type { EditorCommands } from "../editor/monaco-view.tsx";
import { errorMessage } from "../error-message.ts";
import { useDraftEditor, useEditorSnapshot } from "../hooks/use-draft-editor.ts";
import { useCatalogAgents } from "../hooks/use-catalog-agents.ts";
import { useDraftMutations } from "../hooks/use-drafts.ts";
import { useFileNavigation } from "../hooks/use-file-navigation.ts";
import { useFirstVisit, useWelcomeFocus } from "../hooks/use-first-visit.ts";
import { useOpenDraft } from "../hooks/use-open-draft.ts";
import { usePackages } from "../hooks/use-packages.ts";
import { usePayload } from "../hooks/use-payload.ts";
import { useNarrowLayout } from "../hooks/use-narrow-layout.ts";
import { usePaneLayout } from "../hooks/use-pane-layout.ts";
import { useDraftOutputs, useOutputView, useRun } from "../hooks/use-run.ts";
import { useSaveAsTest } from "../hooks/use-save-as-test.ts";
import { useShareActions } from "../hooks/use-share-actions.ts";
import { useWorkbenchCommands } from "../hooks/use-workbench-commands.ts";
import { useTheme } from "../hooks/use-theme.ts";
import { declaredInputSchema } from "../runs/input-schema.ts";
import { parsePayload } from "../runs/payload.ts";
import { ConflictBanner, WelcomeBanner } from "./Banners.tsx";
import { CodeEditor, preloadEditor } from "./CodeEditor.tsx";
import { CommandPalette } from "./CommandPalette.tsx";
import { ConflictDialog } from "./ConflictDialog.tsx";
import { ConnectDialog } from "./ConnectDialog.tsx";
import { DependenciesPanel } from "./DependenciesPanel.tsx";
import { DocsDialog } from "./DocsDialog.tsx";
import { DraftList } from "./DraftList.tsx";
import { FileTabs } from "./FileTabs.tsx";
import { FileTree } from "./FileTree.tsx";
import { GrantsPanel } from "./GrantsPanel.tsx";
import { ManifestForm } from "./ManifestForm.tsx";
import { NoDraft } from "./NoDraft.tsx";
import { PackageFileDialog } from "./PackageFileDialog.tsx";
import { NarrowTabs, type NarrowView, SidebarDrawer } from "./NarrowLayout.tsx";
import { PublishDialog } from "./PublishDialog.tsx";
import { RunColumn } from "./RunColumn.tsx";
import { RunsDialog } from "./RunsDialog.tsx";
import { ShareDialog } from "./ShareDialog.tsx";
import { ShortcutSheet } from "./ShortcutSheet.tsx";
import { QuotaStatus, StatusBar } from "./StatusBar.tsx";
import { ThemeToggle } from "./ThemeToggle.tsx";
import { Toasts, useNotify } from "./Toasts.tsx";
import { ToolButton } from "./ToolButton.tsx";

const resizer = "w-px bg-zinc-200 hover:bg-sky-400 data-[separator=active]:bg-sky-500 dark:bg-zinc-800";

/**
 * The IDE: drafts and files | editor | the open draft's run strip and output panel (`RunColumn`). Below
 * 768 px one column (Code · Run · Output) with the drafts and files in a drawer.
 */
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
  const setNotice = useNotify();
  const [docs, setDocs] = useState<"help" | "catalog">();
  /** The catalog entry the catalog scrolls to (the publish panel's link). */
  const [catalogAgent, setCatalogAgent] = useState<string>();
  const [shortcuts, setShortcuts] = useState(false);
  const [connecting, setConnecting] = useState(false);
  /** The Runs dialog, open (`runId`: with that run chosen, as the Problems view opens a failure's run). */
  const [listingRuns, setListingRuns] = useState<{ runId?: string }>();
  const [merging, setMerging] = useState(false);
  const [commands, setCommands] = useState<EditorCommands>();
  const narrow = useNarrowLayout();
  const [narrowView, setNarrowView] = useState<NarrowView>("code");
  const [drawer, setDrawer] = useState(false);
  const columns = usePaneLayout("columns");
  // Opening a draft from the drawer closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new open draft is what closes it
  useEffect(() => setDrawer(false), [draftId]);
  const firstVisit = useFirstVisit(draftId, setDraftId);
  useWelcomeFocus(firstVisit.welcome, commands);

  const packages = usePackages(editor, files);
  const [packageFrame, setPackageFrame] = useState<StackFrame>();
  // A frame inside a package opens that file read-only; the gadget's own frames open in the editor.
  const openAnyFrame = useCallback(
    (frame: StackFrame) => (frame.file.startsWith("node_modules/") ? setPackageFrame(frame) : openFrame(frame)),
    [openFrame],
  );
  const { typeFiles, undeclared, lookups, add: addPackage } = packages;
  const editorPackages = useMemo(
    () => ({
      typeFiles,
      undeclared,
      lookups,
      add: (name: string, version: string) =>
        void addPackage(name, version).catch((error: unknown) => setNotice(errorMessage(error))),
    }),
    [typeFiles, undeclared, lookups, addPackage, setNotice],
  );
  const manifest = useMemo(() => checkManifest(files), [files]);
  const manifestText = files.find((file) => file.path === MANIFEST_PATH)?.content;
  // Read again only when the manifest's text changes: validation caches its work per schema object.
  const inputSchema = useMemo(
    () => declaredInputSchema(manifestText === undefined ? [] : [{ path: MANIFEST_PATH, content: manifestText }]),
    [manifestText],
  );
  const name = manifest.ok ? manifest.value.name : (draft.data?.name ?? "gadget");
  // Each draft's output is its own: switching drafts shows that draft's last run, never another's.
  const output = useDraftOutputs().of(draftId);
  const { run: runState } = useOutputView(output);
  const { run, cancel } = useRun(output, editor, name);
  const { create } = useDraftMutations();
  const actions = useShareActions({ editor, payloadText, notify: setNotice });
  const saveAsTest = useSaveAsTest(editor, { notify: setNotice, openFile: setActivePath });

  const startRun = useCallback(() => {
    const payload = parsePayload(payloadText);
    if (!payload.ok) return setNotice(payload.error);
    void run(payload.value);
  }, [payloadText, run, setNotice]);

  const saveAndFormat = useCallback(async () => {
    if (!editor) return;
    const failed = await formatAndSave(editor, activePath);
    if (failed) setNotice(failed);
  }, [editor, activePath, setNotice]);

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

  const palette = useWorkbenchCommands({
    ...(editor
      ? {
          run: startRun,
          save: () => void saveAndFormat(),
          publish: () => void actions.publishDraft(),
          share: actions.shareDraft,
        }
      : {}),
    ...(runState.status === "running" ? { cancelRun: () => void cancel() } : {}),
    ...(runState.status === "done" ? { shareRun: () => actions.shareRun(runState.outcome.runId) } : {}),
    ...(commands ? { editorCommands: () => commands.runAction("editor.action.quickCommand") } : {}),
    newDraft: (templateId) => void createFromTemplate(templateId),
    openDraft: setDraftId,
    toggleTheme,
    openDocs: setDocs,
    openShortcuts: () => setShortcuts(true),
  });

  const catalogAgents = useCatalogAgents(manifest.ok && manifest.value.grants?.catalog === true);
  const envTypes = useMemo(
    () => gadgetEnvTypes(manifest.ok ? (manifest.value.grants ?? {}) : {}, catalogAgents),
    [manifest, catalogAgents],
  );
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
            <DependenciesPanel packages={packages} />
          </>
        )}
      </>
    ),
    [draftId, setDraftId, editor, files, activePath, setActivePath, packages],
  );
  const editorPane = editor ? (
    <>
      <FileTabs paths={files.map((file) => file.path)} active={activePath} onSelect={setActivePath} />
      <div className="min-h-0 flex-1">
        <CodeEditor
          files={files}
          activePath={files.some((f) => f.path === activePath) ? activePath : MANIFEST_PATH}
          theme={theme}
          envTypes={envTypes}
          grants={manifest.ok ? (manifest.value.grants ?? {}) : undefined}
          onChange={(path, content) => editor.update(path, content)}
          onRun={startRun}
          onSave={() => void saveAndFormat()}
          onOpenFile={openAt}
          onReady={setCommands}
          reveal={reveal}
          packages={editorPackages}
        />
      </div>
    </>
  ) : draftId ? (
    <p className="m-auto text-sm text-zinc-600 dark:text-zinc-400">Opening the draft…</p>
  ) : (
    <NoDraft onTemplate={(templateId) => void createFromTemplate(templateId)} />
  );

  const runColumn = (mode: "wide" | "narrow") => (
    <RunColumn
      output={output}
      editor={editor}
      files={files}
      payloadText={payloadText}
      onPayloadText={setPayloadText}
      inputSchema={inputSchema}
      onRun={startRun}
      onCancel={() => void cancel()}
      onShareRun={actions.shareRun}
      onSaveAsTest={(runId) => void saveAsTest(runId)}
      onOpenFile={setActivePath}
      onOpenFrame={openAnyFrame}
      onOpenProblemFrame={openProblemFrame}
      onOpenRunRecord={(runId) => setListingRuns({ runId })}
      dark={dark}
      {...(mode === "narrow" ? { narrow: narrowView === "run" ? ("run" as const) : ("output" as const) } : {})}
      onShowOutput={() => setNarrowView((view) => (view === "code" ? view : "output"))}
    />
  );

  return (
    <div className="flex h-screen min-h-0 flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex h-10 shrink-0 items-center gap-1 border-b border-zinc-200 bg-zinc-50 px-2 dark:border-zinc-800 dark:bg-zinc-900">
        {narrow && (
          <ToolButton
            icon="menu"
            label="Drafts and files"
            tooltip="Drafts, files, manifest and grants"
            onClick={() => setDrawer(true)}
          />
        )}
        <h1 className="flex shrink-0 items-center gap-1.5 pr-2 font-semibold whitespace-nowrap">
          <span className="inline-block h-3 w-3 rotate-45 rounded-sm bg-sky-500" aria-hidden="true" />
          {/* Spelled out only where the toolbar's labels leave room for it and the draft's name. */}
          <span className="sr-only xl:not-sr-only">Gadget Workshop</span>
        </h1>
        {draft.data && (
          <span className="truncate border-l border-zinc-300 pl-2 text-sm text-zinc-600 dark:border-zinc-700 dark:text-zinc-400">
            <bdi>{name}</bdi>
          </span>
        )}
        <nav className="ml-auto flex min-w-0 items-center gap-0.5 overflow-x-auto" aria-label="Toolbar">
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
            </>
          )}
          <ToolButton
            icon="palette"
            label="Commands"
            tooltip="Command palette: run, publish, share, switch draft… (the editor's own: F1)"
            shortcut="Ctrl+K"
            onClick={palette.openPalette}
          />
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
            onClick={() => setListingRuns({})}
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
      {packageFrame && (
        <PackageFileDialog frame={packageFrame} packages={packages} onClose={() => setPackageFrame(undefined)} />
      )}
      {docs && (
        <DocsDialog
          view={docs}
          agent={catalogAgent}
          onClose={() => {
            setDocs(undefined);
            setCatalogAgent(undefined);
          }}
        />
      )}
      {actions.publishView && (
        <PublishDialog
          view={actions.publishView}
          onClose={actions.closePublish}
          onPublishAnyway={actions.publishAnyway}
          onOpenTests={() => {
            actions.closePublish();
            setActivePath(TESTS_PATH);
          }}
          onOpenCatalog={(agentName) => {
            actions.closePublish();
            setCatalogAgent(agentName);
            setDocs("catalog");
          }}
        />
      )}
      <Toasts />
      {shortcuts && <ShortcutSheet onClose={() => setShortcuts(false)} />}
      {palette.paletteOpen && <CommandPalette onClose={palette.closePalette} />}
      {connecting && <ConnectDialog onClose={() => setConnecting(false)} />}
      {listingRuns && <RunsDialog onClose={() => setListingRuns(undefined)} dark={dark} {...listingRuns} />}
      {actions.sharedId && (
        <ShareDialog
          shareId={actions.sharedId}
          files={files.map((file) => file.path)}
          onClose={actions.closeShareDialog}
        />
      )}
      {narrow && <NarrowTabs view={narrowView} onView={setNarrowView} />}
      {narrow && drawer && <SidebarDrawer onClose={() => setDrawer(false)}>{sidebar}</SidebarDrawer>}
      <main className="flex min-h-0 flex-1 flex-col">
        {narrow ? (
          <div className="flex min-h-0 flex-1 flex-col">
            <div className="flex min-h-0 flex-1 flex-col" hidden={narrowView !== "code"}>
              {editorPane}
            </div>
            {narrowView !== "code" && <div className="min-h-0 flex-1">{runColumn("narrow")}</div>}
          </div>
        ) : (
          <Group
            orientation="horizontal"
            className="min-h-0 flex-1"
            defaultLayout={columns.defaultLayout}
            onLayoutChanged={columns.onLayoutChanged}
          >
            <Panel
              id="sidebar"
              defaultSize="18"
              minSize="12"
              className="overflow-auto bg-zinc-50/60 dark:bg-zinc-900/40"
            >
              {sidebar}
            </Panel>
            <Separator className={resizer} aria-label="Resize the sidebar and the editor" />
            <Panel id="editor" defaultSize="47" minSize="25" className="flex flex-col">
              {editorPane}
            </Panel>
            <Separator className={resizer} aria-label="Resize the editor and the run column" />
            <Panel id="run" defaultSize="35" minSize="22">
              {runColumn("wide")}
            </Panel>
          </Group>
        )}
      </main>
      <StatusBar runState={runState} saveState={editor ? saveState : undefined}>
        <QuotaStatus />
      </StatusBar>
    </div>
  );
}
