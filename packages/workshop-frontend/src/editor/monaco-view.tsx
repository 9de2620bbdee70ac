/**
 * The Monaco editor, bundled with the app (no CDN). One model per gadget file under `file:///gadget/`,
 * so imports between files resolve and TypeScript knows the gadget contract from the env types.
 * Loaded lazily: pages that only show code never download it.
 */

import * as monaco from "./monaco.ts";
import { useEffect, useRef } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";

export interface MonacoViewProps {
  files: GadgetFile[];
  activePath: string;
  theme: "light" | "dark";
  envTypes: string;
  readOnly?: boolean;
  onChange(path: string, content: string): void;
  onRun(): void;
  onSave(): void;
  /** Moves the cursor to a position; a new object each time it should happen. */
  reveal?: { path: string; line: number; column: number };
}

const uriOf = (path: string) => monaco.Uri.parse(`file:///gadget/${path}`);
const languageOf = (path: string) =>
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
function configureTypeScript(): void {
  if (configured) return;
  configured = true;
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
}

let envLib: monaco.IDisposable | undefined;

export default function MonacoView(props: MonacoViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const editor = useRef<monaco.editor.IStandaloneCodeEditor>(undefined);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    configureTypeScript();
    if (!host.current) return;
    const instance = monaco.editor.create(host.current, {
      automaticLayout: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      tabSize: 2,
      ariaLabel: "Code editor",
    });
    editor.current = instance;
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.Enter, () => latest.current.onRun());
    instance.addCommand(monaco.KeyMod.CtrlCmd | monaco.KeyCode.KeyS, () => latest.current.onSave());
    const changes = instance.onDidChangeModelContent(() => {
      const model = instance.getModel();
      if (!model) return;
      const path = model.uri.path.replace(/^\/gadget\//, "");
      latest.current.onChange(path, model.getValue());
    });
    return () => {
      changes.dispose();
      instance.dispose();
      for (const model of monaco.editor.getModels()) if (model.uri.path.startsWith("/gadget/")) model.dispose();
    };
  }, []);

  useEffect(() => {
    envLib?.dispose();
    envLib = monaco.typescript.typescriptDefaults.addExtraLib(props.envTypes, "file:///gadget-env.d.ts");
  }, [props.envTypes]);

  useEffect(() => {
    monaco.editor.setTheme(props.theme === "dark" ? "vs-dark" : "vs");
  }, [props.theme]);

  useEffect(() => {
    editor.current?.updateOptions({ readOnly: props.readOnly ?? false });
  }, [props.readOnly]);

  // Keep one model per file; text typed here is already in the model, outside changes are applied.
  useEffect(() => {
    const wanted = new Set(props.files.map((file) => uriOf(file.path).toString()));
    for (const model of monaco.editor.getModels()) {
      if (model.uri.path.startsWith("/gadget/") && !wanted.has(model.uri.toString())) model.dispose();
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
