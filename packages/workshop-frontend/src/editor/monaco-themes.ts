/**
 * Monaco themes that match the IDE's own palette (zinc greys, sky accent), so the editor, the diff
 * view and the page around them read as one surface in both light and dark.
 */
import * as monaco from "./monaco.ts";

export const EDITOR_THEME = { light: "workshop-light", dark: "workshop-dark" } as const;

let defined = false;
export function defineWorkshopThemes(): void {
  if (defined) return;
  defined = true;
  monaco.editor.defineTheme(EDITOR_THEME.light, {
    base: "vs",
    inherit: true,
    rules: [],
    colors: {
      "editor.background": "#ffffff",
      "editor.lineHighlightBackground": "#f4f4f5",
      // zinc-500: 4.8:1 on white (WCAG AA for text).
      "editorLineNumber.foreground": "#71717a",
      "editorLineNumber.activeForeground": "#3f3f46",
      "editorGutter.background": "#ffffff",
      "editorWidget.background": "#fafafa",
      "editorWidget.border": "#d4d4d8",
      focusBorder: "#0ea5e9",
    },
  });
  monaco.editor.defineTheme(EDITOR_THEME.dark, {
    base: "vs-dark",
    inherit: true,
    rules: [],
    colors: {
      "editor.background": "#09090b",
      "editor.lineHighlightBackground": "#18181b",
      // zinc-400: 7.8:1 on zinc-950 (WCAG AA for text).
      "editorLineNumber.foreground": "#a1a1aa",
      "editorLineNumber.activeForeground": "#d4d4d8",
      "editorGutter.background": "#09090b",
      "editorWidget.background": "#18181b",
      "editorWidget.border": "#3f3f46",
      focusBorder: "#0ea5e9",
    },
  });
}
