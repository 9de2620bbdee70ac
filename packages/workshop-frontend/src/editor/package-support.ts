/**
 * npm packages in Monaco: the locked tree's declarations as extra libs under file:///node_modules/…
 * (TypeScript finds them from file:///gadget/ as it would a real install, so `z.` completes and hovers),
 * a marker on each import of a package gadget.json does not declare, and its quick fix "Add zod 4.1.2 to
 * dependencies" with the version looked up before it is shown. Everything comes from the Workshop.
 */

import type { PackageLookup } from "@gadgets/workshop-shared";
import type { UndeclaredImport } from "../packages/package-imports.ts";
import * as monaco from "./monaco.ts";

/** What the editor is told about packages (from `usePackages`). */
export interface EditorPackages {
  typeFiles: readonly { path: string; content: string }[];
  undeclared: readonly UndeclaredImport[];
  lookup(name: string): Promise<PackageLookup | undefined>;
  add(name: string, version: string): void;
}

export const PACKAGE_MARKER_SOURCE = "dependencies";
const ADD_COMMAND = "gadgets.addDependency";

// The one editor's current packages: the provider and command are registered once for all models.
let current: EditorPackages | undefined;

let registered = false;
function registerOnce(): void {
  if (registered) return;
  registered = true;
  monaco.editor.registerCommand(ADD_COMMAND, (_accessor: unknown, name: unknown, version: unknown) => {
    if (typeof name === "string" && typeof version === "string") current?.add(name, version);
  });
  for (const language of ["typescript", "javascript"]) {
    monaco.languages.registerCodeActionProvider(
      language,
      {
        async provideCodeActions(_model, _range, context) {
          const markers = context.markers.filter((marker) => marker.source === PACKAGE_MARKER_SOURCE);
          const actions: monaco.languages.CodeAction[] = [];
          for (const marker of markers) {
            const name = typeof marker.code === "string" ? marker.code : undefined;
            const found = name ? await current?.lookup(name) : undefined;
            if (!found) continue;
            const title = `Add ${found.name} ${found.version} to dependencies`;
            actions.push({
              title,
              kind: "quickfix",
              diagnostics: [marker],
              isPreferred: true,
              command: { id: ADD_COMMAND, title, arguments: [found.name, found.version] },
            });
          }
          return { actions, dispose: () => {} };
        },
      },
      { providedCodeActionKinds: ["quickfix"] },
    );
  }
}

const shownMarkers = new WeakMap<monaco.editor.ITextModel, string>();
let libs: monaco.IDisposable[] = [];
let libsFor: EditorPackages["typeFiles"] | undefined;

/** Makes the editor show `packages`: call on every change of them. */
export function showPackages(packages: EditorPackages | undefined, modelPrefix: string): void {
  registerOnce();
  current = packages;
  const typeFiles = packages?.typeFiles ?? [];
  if (typeFiles !== libsFor) {
    libsFor = typeFiles;
    for (const lib of libs) lib.dispose();
    libs = typeFiles.flatMap((file) =>
      ["typescriptDefaults", "javascriptDefaults"].map((defaults) =>
        monaco.typescript[defaults as "typescriptDefaults"].addExtraLib(file.content, `file:///${file.path}`),
      ),
    );
  }
  // Asked now, so the quick fix has its version by the time someone opens it.
  for (const found of packages?.undeclared ?? []) void packages?.lookup(found.name);
  for (const model of monaco.editor.getModels()) {
    if (!model.uri.path.startsWith(modelPrefix)) continue;
    const path = model.uri.path.slice(modelPrefix.length);
    const markers = (packages?.undeclared ?? [])
      .filter((found) => found.path === path)
      .map((found) => ({
        severity: monaco.MarkerSeverity.Error,
        message: `"${found.name}" is not in gadget.json's dependencies: add it (quick fix: Ctrl+.) to use it.`,
        source: PACKAGE_MARKER_SOURCE,
        code: found.name,
        startLineNumber: found.line,
        startColumn: found.startColumn,
        endLineNumber: found.line,
        endColumn: found.endColumn,
      }));
    // Setting the same markers again would restart (and cancel) an open quick-fix request.
    const key = JSON.stringify(markers);
    if (shownMarkers.get(model) === key) continue;
    shownMarkers.set(model, key);
    monaco.editor.setModelMarkers(model, PACKAGE_MARKER_SOURCE, markers);
  }
}
