import { type ReactNode, useCallback, useMemo, useState, useSyncExternalStore } from "react";
import { Group, Panel, Separator } from "react-resizable-panels";
import { checkTests, type GadgetFile, type StackFrame } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { runs, useCommand } from "../hooks/use-app-commands.ts";
import { useDraftRuns } from "../hooks/use-draft-runs.ts";
import { useFreshProblems } from "../hooks/use-fresh-problems.ts";
import { usePaneLayout } from "../hooks/use-pane-layout.ts";
import { useOutputView, useRunTests } from "../hooks/use-run.ts";
import type { DraftOutput } from "../runs/draft-output.ts";
import type { DeclaredSchema } from "../runs/input-schema.ts";
import { ConsolePanel } from "./ConsolePanel.tsx";
import { DraftRunsPanel } from "./DraftRunsPanel.tsx";
import { type OutputTab, OutputTabs, outputPanelId, outputTabId } from "./OutputTabs.tsx";
import { ProblemsPanel } from "./ProblemsPanel.tsx";
import { FetchHint } from "./FetchHint.tsx";
import { RunPanel } from "./RunPanel.tsx";
import { RunTracePanel } from "./RunTracePanel.tsx";
import { TestsPanel } from "./TestsPanel.tsx";

const resizerRow = "h-px bg-zinc-200 hover:bg-sky-400 data-[separator=active]:bg-sky-500 dark:bg-zinc-800";

/** How many console lines a store holds (its run headers and end lines aside). */
const lineCount = (output: DraftOutput) =>
  output.console.all().reduce((n, entry) => (entry.kind === "log" || entry.kind === "error" ? n + 1 : n), 0);

/**
 * The IDE's right column for the open draft: a strip with the payload, Run and the result, and below it
 * one tabbed output panel — Console · Trace · Tests · Problems · Runs, each with its count. Everything in
 * it is the open draft's own output. Wide, the two share the column (the split is kept across reloads);
 * narrow, `narrow` says which of the two the page shows.
 */
export function RunColumn(props: {
  output: DraftOutput;
  editor: DraftEditor | undefined;
  files: readonly GadgetFile[];
  payloadText: string;
  onPayloadText(text: string): void;
  inputSchema: DeclaredSchema;
  onRun(): void;
  onCancel(): void;
  onShareRun(runId: string): void;
  onSaveAsTest(runId: string): void;
  onOpenFile(path: string): void;
  onOpenFrame(frame: StackFrame): void;
  onOpenProblemFrame: Parameters<typeof ProblemsPanel>[0]["onOpenFrame"];
  onOpenRunRecord: Parameters<typeof ProblemsPanel>[0]["onOpenRun"];
  dark: boolean;
  /** One column: the strip ("run") or the output panel ("output"); wide when left out. */
  narrow?: "run" | "output";
  /** Called when the output panel should be on screen (Ctrl+Shift+Enter on a narrow page). */
  onShowOutput?(): void;
}) {
  const { output, editor, files, dark, narrow, onShowOutput } = props;
  const view = useOutputView(output);
  const [tab, setTab] = useState<OutputTab>("console");
  const lines = useSyncExternalStore(output.console.subscribe, () => lineCount(output));
  const problems = useFreshProblems(tab === "problems", view.run);
  const shownRunId = view.run.status === "done" ? view.run.outcome.runId : undefined;
  const draftRuns = useDraftRuns(editor?.draftId, {
    live: tab === "runs",
    ...(shownRunId ? { latestRunId: shownRunId } : {}),
  });
  const runTests = useRunTests(output, editor);
  const layout = usePaneLayout("run-column");

  // Ctrl/Cmd+Shift+Enter (and the palette's Run tests): the Tests tab comes forward with the results.
  const testsAndShow = useCallback(() => {
    setTab("tests");
    onShowOutput?.();
    void runTests();
  }, [runTests, onShowOutput]);
  useCommand("run-tests", runs(editor ? testsAndShow : undefined));

  const cases = useMemo(() => checkTests(files), [files]);
  const tests = view.tests;
  const testCount =
    tests.state.status === "done" && tests.state.summary.status !== "invalid"
      ? `${tests.state.summary.passed}/${tests.state.summary.total}`
      : cases.ok
        ? cases.value.length
        : "!";
  const spans = view.record.status === "ok" ? (view.record.record.trace?.spans.length ?? 0) : 0;

  const { onOpenFrame } = props;
  // Run status events re-render the column while a run starts; the console's own store drives its lines.
  const consolePanel = useMemo(
    () => (
      <ConsolePanel
        dark={dark}
        store={output.console}
        onOpenFrame={onOpenFrame}
        hideTitle
        emptyHint="Console output appears here while the gadget runs: press Ctrl+Enter. console.log values can be expanded; an error's stack frames open the line."
      />
    ),
    [dark, output, onOpenFrame],
  );

  const strip = editor ? (
    <RunPanel
      draftId={editor.draftId}
      payloadText={props.payloadText}
      onPayloadText={props.onPayloadText}
      state={view.run}
      onRun={props.onRun}
      onCancel={props.onCancel}
      onShareRun={props.onShareRun}
      onSaveAsTest={props.onSaveAsTest}
      dark={dark}
      inputSchema={props.inputSchema}
      {...(view.recorded ? { recordedNote: "A stored run of this draft (from its Runs)." } : {})}
      failureHint={(message) => editor && <FetchHint message={message} editor={editor} files={files} />}
    />
  ) : (
    <p className="p-3 text-xs text-zinc-600 dark:text-zinc-400">The payload and the result of a run show here.</p>
  );

  const panel = (which: OutputTab, content: ReactNode) => (
    <div
      id={outputPanelId(which)}
      role="tabpanel"
      aria-labelledby={outputTabId(which)}
      hidden={tab !== which}
      className="h-full min-h-0"
    >
      {content}
    </div>
  );

  const outputPanel = (
    <section className="flex h-full min-h-0 flex-col" aria-label="Output">
      <OutputTabs
        tab={tab}
        onTab={setTab}
        counts={{
          console: lines,
          trace: spans,
          ...(editor ? { tests: testCount } : {}),
          problems: problems.groups?.length ?? 0,
          runs: draftRuns.data?.length ?? 0,
        }}
        freshCount={problems.fresh.size}
      />
      {/* Every tab stays mounted, so a span picked in Trace keeps narrowing the console behind it. */}
      <div className="min-h-0 flex-1">
        {panel("console", consolePanel)}
        {panel("trace", <RunTracePanel shown={view.record} store={output.console} />)}
        {panel(
          "tests",
          editor ? (
            <TestsPanel
              editor={editor}
              files={files}
              tests={tests}
              onRun={testsAndShow}
              onOpenFile={props.onOpenFile}
            />
          ) : (
            <p className="p-2 text-xs text-zinc-600 dark:text-zinc-400">Open a draft to run its tests.</p>
          ),
        )}
        {panel(
          "problems",
          <ProblemsPanel
            groups={problems.groups}
            fresh={problems.fresh}
            onOpenFrame={props.onOpenProblemFrame}
            onOpenRun={props.onOpenRunRecord}
          />,
        )}
        {panel(
          "runs",
          <DraftRunsPanel
            output={output}
            runs={editor ? draftRuns.data : []}
            error={draftRuns.error}
            shownRunId={shownRunId}
            onShown={() => setTab("console")}
          />,
        )}
      </div>
    </section>
  );

  if (narrow)
    return (
      <div className="h-full min-h-0">
        <div className="h-full min-h-0" hidden={narrow !== "run"}>
          {strip}
        </div>
        <div className="h-full min-h-0" hidden={narrow !== "output"}>
          {outputPanel}
        </div>
      </div>
    );
  return (
    <Group orientation="vertical" defaultLayout={layout.defaultLayout} onLayoutChanged={layout.onLayoutChanged}>
      <Panel id="strip" defaultSize="42" minSize={150}>
        {strip}
      </Panel>
      <Separator className={resizerRow} aria-label="Resize the run strip and the output panel" />
      <Panel id="output" defaultSize="58" minSize={120}>
        {outputPanel}
      </Panel>
    </Group>
  );
}
