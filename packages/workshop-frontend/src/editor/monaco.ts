/**
 * The parts of Monaco the Workshop uses: the editor with all its editing features (suggestions, hover,
 * signature help, find/replace, command palette, go to definition, rename, format, multi-cursor,
 * folding, the diff editor), TypeScript/JavaScript with their language service, JSON for the manifest,
 * Markdown for docs. Importing `monaco-editor` whole would add dozens of languages and their workers.
 * This module is only ever loaded lazily, when a page starts to edit.
 */
import "monaco-editor/features/register.all";
import "monaco-editor/languages/definitions/typescript/register";
import "monaco-editor/languages/definitions/javascript/register";
import "monaco-editor/languages/definitions/markdown/register";
import "monaco-editor/languages/features/json/register";
import { ignoreMonacoCancellations } from "./monaco-cancellation.ts";

export * from "monaco-editor/editor";
export * as typescript from "monaco-editor/languages/features/typescript/register";
export * as json from "monaco-editor/languages/features/json/register";

// Loaded with Monaco: its own unawaited cancellations are not page errors (see the module).
ignoreMonacoCancellations(window);
