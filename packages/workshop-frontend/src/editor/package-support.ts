/**
 * npm packages in Monaco: the locked tree's declarations as extra libs under file:///node_modules/…
 * (TypeScript finds them from file:///gadget/ as it would a real install, so `z.` completes and hovers),
 * a marker on each import of a package gadget.json does not declare, and its quick fix "Add zod 4.1.2 to
 * dependencies" with the version looked up before it is shown. Everything comes from the Workshop.
 * The quick fix is computed synchronously from lookups made ahead: Monaco cancels a Ctrl+. request that
 * is still pending when the next automatic one comes (after a cursor move or a marker change), so a
 * provider that waits on the network loses the menu.
 */

import type { UndeclaredImport } from "../packages/package-imports.ts";
import type { PackageLookupState } from "../packages/package-lookups.ts";
import * as monaco from "./monaco.ts";

/** What the editor is told about packages (from `usePackages`). */
export interface EditorPackages {
  typeFiles: readonly { path: string; content: string }[];
  undeclared: readonly UndeclaredImport[];
  lookups: ReadonlyMap<string, PackageLookupState>;
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
        provideCodeActions(_model, _range, context) {
          const actions = context.markers.flatMap((marker): monaco.languages.CodeAction[] => {
            const name = marker.source === PACKAGE_MARKER_SOURCE && typeof marker.code === "string" ? marker.code : "";
            const state = current?.lookups.get(name);
            if (state?.status !== "found") return [];
            const { found } = state;
            const title = `Add ${found.name} ${found.version} to dependencies`;
            return [
              {
                title,
                kind: "quickfix",
                diagnostics: [marker],
                isPreferred: true,
                command: { id: ADD_COMMAND, title, arguments: [found.name, found.version] },
              },
            ];
          });
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
  for (const model of monaco.editor.getModels()) {
    if (!model.uri.path.startsWith(modelPrefix)) continue;
    const path = model.uri.path.slice(modelPrefix.length);
    // Shown once its lookup answered, so a marker never changes under an open Ctrl+. (Monaco would
    // cancel it) and the quick fix is there from the marker's first moment.
    const markers = (packages?.undeclared ?? []).flatMap((found) => {
      const lookup = found.path === path ? packages?.lookups.get(found.name) : undefined;
      if (!lookup) return [];
      return {
        severity: monaco.MarkerSeverity.Error,
        message: markerMessage(found.name, lookup),
        source: PACKAGE_MARKER_SOURCE,
        code: found.name,
        startLineNumber: found.line,
        startColumn: found.startColumn,
        endLineNumber: found.line,
        endColumn: found.endColumn,
      };
    });
    // Setting the same markers again would restart (and cancel) an open quick-fix request.
    const key = JSON.stringify(markers);
    if (shownMarkers.get(model) === key) continue;
    shownMarkers.set(model, key);
    monaco.editor.setModelMarkers(model, PACKAGE_MARKER_SOURCE, markers);
  }
}

function markerMessage(name: string, lookup: PackageLookupState): string {
  const missing = `"${name}" is not in gadget.json's dependencies`;
  if (lookup.status === "failed") return `${missing}, and it cannot be added: ${lookup.message}`;
  return `${missing}: the quick fix (Ctrl+.) adds ${lookup.found.name} ${lookup.found.version}.`;
}
