/**
 * The Monaco editor, bundled with the app (no CDN). One model per gadget file under `file:///gadget/`,
 * so imports between files resolve, go to definition and rename work across the gadget's files, and
 * TypeScript knows the gadget contract from the env types.
 * Loaded lazily: pages that only show code never download it.
 */

import * as monaco from "./monaco.ts";
import { useEffect, useRef } from "react";
import type { GadgetFile, GadgetGrants } from "@gadgets/workshop-shared";
import { envCompletionHint } from "./env-hint.ts";
import { fileSchemas } from "./file-schemas.ts";
import { GADGET_SNIPPETS } from "./gadget-snippets.ts";
import { defineWorkshopThemes, EDITOR_THEME } from "./monaco-themes.ts";
import { type EditorPackages, showPackages } from "./package-support.ts";

/** What the page around the editor can ask of it (toolbar buttons, the shortcut sheet). */
export interface EditorCommands {
  /** Runs a Monaco action by id, e.g. `editor.action.quickCommand`; focuses the editor first. */
  runAction(id: string): void;
  focus(): void;
}

export interface MonacoViewProps {
  files: GadgetFile[];
  activePath: string;
  theme: "light" | "dark";
  envTypes: string;
  /** The manifest's grants: with none, `env.` offers a hint on granting instead of nothing. */
  grants?: GadgetGrants;
  readOnly?: boolean;
  /** Shown when someone types into a read-only editor. */
  readOnlyMessage?: string;
  onChange(path: string, content: string): void;
  onRun(): void;
  onSave(): void;
  /** Go to definition (or a reference) landed in another file of the gadget. */
  onOpenFile?(path: string, line: number, column: number): void;
  onReady?(commands: EditorCommands | undefined): void;
  /** Moves the cursor to a position; a new object each time it should happen. */
  reveal?: { path: string; line: number; column: number };
  /** npm packages: their types, undeclared imports and the quick fix that adds one. */
  packages?: EditorPackages;
}

const GADGET_PREFIX = "/gadget/";
export const uriOf = (path: string) => monaco.Uri.parse(`file://${GADGET_PREFIX}${path}`);
export const languageOf = (path: string) =>
  path.endsWith(".ts")
    ? "typescript"
    : /\.m?js$/.test(path)
      ? "javascript"
      : path.endsWith(".json")
        ? "json"
        : path.endsWith(".md")
          ? "markdown"
          : "plaintext";

let configured = false;
function configureOnce(): void {
  if (configured) return;
  configured = true;
  defineWorkshopThemes();
  const options = {
    target: monaco.typescript.ScriptTarget.ES2020,
    module: monaco.typescript.ModuleKind.ESNext,
    moduleResolution: monaco.typescript.ModuleResolutionKind.NodeJs,
    allowNonTsExtensions: true,
    allowImportingTsExtensions: true,
    strict: true,
    noEmit: true,
    lib: ["es2023", "webworker"],
  };
  monaco.typescript.typescriptDefaults.setCompilerOptions(options);
  monaco.typescript.javascriptDefaults.setCompilerOptions({ ...options, checkJs: false });
  // All gadget files are open models: the worker sees them eagerly, so cross-file suggestions are instant.
  monaco.typescript.typescriptDefaults.setEagerModelSync(true);
  // gadget.json and gadget.tests.json are checked as they are typed, against schemas held in memory.
  monaco.json.jsonDefaults.setDiagnosticsOptions({
    validate: true,
    enableSchemaRequest: false,
    schemaValidation: "error",
    schemas: fileSchemas(),
  });
  for (const language of ["typescript", "javascript"]) {
    monaco.languages.registerCompletionItemProvider(language, {
      provideCompletionItems(model, position) {
        const word = model.getWordUntilPosition(position);
        const range = new monaco.Range(position.lineNumber, word.startColumn, position.lineNumber, word.endColumn);
        const before = model.getValueInRange(
          new monaco.Range(position.lineNumber, 1, position.lineNumber, position.column),
        );
        const hint = editedGrants && envCompletionHint(before, editedGrants);
        return {
          suggestions: [
            ...(hint
              ? [
                  {
                    label: hint.label,
                    kind: monaco.languages.CompletionItemKind.Text,
                    documentation: { value: hint.documentation },
                    insertText: "",
                    // First in the list, whatever is typed after the dot.
                    sortText: "!",
                    filterText: before.slice(before.lastIndexOf(".") + 1),
                    range,
                  },
                ]
              : []),
            ...GADGET_SNIPPETS.map((snippet) => ({
              label: snippet.label,
              kind: monaco.languages.CompletionItemKind.Snippet,
              detail: snippet.detail,
              documentation: { value: snippet.documentation },
              insertText: snippet.body,
              insertTextRules: monaco.languages.CompletionItemInsertTextRule.InsertAsSnippet,
              range,
            })),
          ],
        };
      },
    });
  }
}

let envLib: monaco.IDisposable | undefined;
/** The open gadget's grants, for the completion provider (registered once for every editor). */
let editedGrants: GadgetGrants | undefined;

export default function MonacoView(props: MonacoViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor>(undefined);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    configureOnce();
    if (!host.current) return;
    const instance = monaco.editor.create(host.current, {
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      tabSize: 2,
      ariaLabel: "Code editor",
      theme: latest.current.theme === "dark" ? EDITOR_THEME.dark : EDITOR_THEME.light,
      fixedOverflowWidgets: true,
      bracketPairColorization: { enabled: true },
      guides: { bracketPairs: "active" },
      folding: true,
      showFoldingControls: "mouseover",
    });
    editor.current = instance;
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun());
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
    const changes = instance.onDidChangeModelContent(() => {
      const model = instance.getModel();
      if (!model || instance.getOption(monaco.editor.EditorOption.readOnly)) return;
      latest.current.onChange(model.uri.path.slice(GADGET_PREFIX.length), model.getValue());
    });
    // Rename across files edits models that are not shown: report those edits too.
    const modelListeners = new Map<string, monaco.IDisposable>();
    const watch = (model: monaco.editor.ITextModel) => {
      if (!model.uri.path.startsWith(GADGET_PREFIX) || modelListeners.has(model.uri.toString())) return;
      modelListeners.set(
        model.uri.toString(),
        model.onDidChangeContent(() => {
          if (instance.getModel() === model || latest.current.readOnly) return;
          latest.current.onChange(model.uri.path.slice(GADGET_PREFIX.length), model.getValue());
        }),
      );
    };
    for (const model of monaco.editor.getModels()) watch(model);
    const created = monaco.editor.onDidCreateModel(watch);
    const disposedModels = monaco.editor.onWillDisposeModel((model) => {
      modelListeners.get(model.uri.toString())?.dispose();
      modelListeners.delete(model.uri.toString());
    });
    // Go to definition into another file: switch the tab there instead of doing nothing.
    const opener = monaco.editor.registerEditorOpener({
      openCodeEditor(source, resource, selectionOrPosition) {
        if (source !== instance || !resource.path.startsWith(GADGET_PREFIX)) return false;
        const at =
          selectionOrPosition && "startLineNumber" in selectionOrPosition
            ? { line: selectionOrPosition.startLineNumber, column: selectionOrPosition.startColumn }
            : selectionOrPosition
              ? { line: selectionOrPosition.lineNumber, column: selectionOrPosition.column }
              : { line: 1, column: 1 };
        latest.current.onOpenFile?.(resource.path.slice(GADGET_PREFIX.length), at.line, at.column);
        return latest.current.onOpenFile !== undefined;
      },
    });
    latest.current.onReady?.({
      runAction(id) {
        instance.focus();
        void instance.getAction(id)?.run();
      },
      focus: () => instance.focus(),
    });
    return () => {
      latest.current.onReady?.(undefined);
      opener.dispose();
      created.dispose();
      disposedModels.dispose();
      for (const listener of modelListeners.values()) listener.dispose();
      changes.dispose();
      instance.dispose();
      for (const model of monaco.editor.getModels()) if (model.uri.path.startsWith(GADGET_PREFIX)) model.dispose();
    };
  }, []);

  useEffect(() => {
    editedGrants = props.grants;
  }, [props.grants]);

  useEffect(() => {
    envLib?.dispose();
    envLib = monaco.typescript.typescriptDefaults.addExtraLib(props.envTypes, "file:///gadget-env.d.ts");
  }, [props.envTypes]);

  useEffect(() => {
    monaco.editor.setTheme(props.theme === "dark" ? EDITOR_THEME.dark : EDITOR_THEME.light);
  }, [props.theme]);

  useEffect(() => {
    editor.current?.updateOptions({
      readOnly: props.readOnly ?? false,
      ...(props.readOnlyMessage ? { readOnlyMessage: { value: props.readOnlyMessage } } : {}),
    });
  }, [props.readOnly, props.readOnlyMessage]);

  // Keep one model per file; text typed here is already in the model, outside changes are applied.
  useEffect(() => {
    const wanted = new Set(props.files.map((file) => uriOf(file.path).toString()));
    for (const model of monaco.editor.getModels()) {
      if (model.uri.path.startsWith(GADGET_PREFIX) && !wanted.has(model.uri.toString())) model.dispose();
    }
    for (const file of props.files) {
      const uri = uriOf(file.path);
      const model = monaco.editor.getModel(uri);
      if (!model) monaco.editor.createModel(file.content, languageOf(file.path), uri);
      else if (model.getValue() !== file.content) model.setValue(file.content);
    }
    const active = monaco.editor.getModel(uriOf(props.activePath));
    if (active && editor.current && editor.current.getModel() !== active) editor.current.setModel(active);
  }, [props.files, props.activePath]);

  // After the models effect above, so a new file's markers land on its model.
  // biome-ignore lint/correctness/useExhaustiveDependencies: new files mean new models to mark
  useEffect(() => {
    showPackages(props.packages, GADGET_PREFIX);
  }, [props.packages, props.files]);

  useEffect(() => {
    const target = props.reveal;
    const instance = editor.current;
    if (!target || !instance) return;
    const model = monaco.editor.getModel(uriOf(target.path));
    if (!model) return;
    if (instance.getModel() !== model) instance.setModel(model);
    instance.revealLineInCenter(target.line);
    instance.setPosition({ lineNumber: target.line, column: target.column });
    instance.focus();
  }, [props.reveal]);

  return <div ref={host} className="h-full w-full" data-testid="monaco-host" />;
}
