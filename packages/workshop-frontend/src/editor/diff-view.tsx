/**
 * Monaco's diff editor over one conflicted file: theirs (saved elsewhere, read-only) on the left, mine
 * on the right, where the person merges — the arrows between the sides copy changes across.
 * Lazy-loaded with the rest of Monaco.
 */

import * as monaco from "./monaco.ts";
import { useEffect, useRef } from "react";
import { languageOf } from "./monaco-view.tsx";
import { defineWorkshopThemes, EDITOR_THEME } from "./monaco-themes.ts";

export interface DiffViewProps {
  path: string;
  theirs: string;
  /** The starting text of the merged side. */
  mine: string;
  theme: "light" | "dark";
  onChange(path: string, merged: string): void;
}

let nextId = 0;

export default function DiffView(props: DiffViewProps) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const { path, theirs } = props;

  useEffect(() => {
    defineWorkshopThemes();
    if (!host.current) return;
    // Outside file:///gadget/: the merge's copies must not join the gadget's TypeScript program.
    const id = nextId++;
    const original = monaco.editor.createModel(
      theirs,
      languageOf(path),
      monaco.Uri.parse(`inmemory://merge/${id}/theirs/${path}`),
    );
    // The starting text only: the merge then lives in the model. Rebuilding the editor when the parent
    // passes back the edited text would drop the person's cursor and focus mid-typing.
    const modified = monaco.editor.createModel(
      latest.current.mine,
      languageOf(path),
      monaco.Uri.parse(`inmemory://merge/${id}/mine/${path}`),
    );
    const diff = monaco.editor.createDiffEditor(host.current, {
      automaticLayout: true,
      originalEditable: false,
      renderSideBySide: true,
      useInlineViewWhenSpaceIsLimited: true,
      minimap: { enabled: false },
      fontSize: 13,
      scrollBeyondLastLine: false,
      renderMarginRevertIcon: true,
      theme: latest.current.theme === "dark" ? EDITOR_THEME.dark : EDITOR_THEME.light,
    });
    diff.setModel({ original, modified });
    const changes = modified.onDidChangeContent(() => latest.current.onChange(path, modified.getValue()));
    return () => {
      changes.dispose();
      diff.dispose();
      original.dispose();
      modified.dispose();
    };
  }, [path, theirs]);

  useEffect(() => {
    monaco.editor.setTheme(props.theme === "dark" ? EDITOR_THEME.dark : EDITOR_THEME.light);
  }, [props.theme]);

  return <div ref={host} className="h-full w-full" data-testid="diff-editor" />;
}
