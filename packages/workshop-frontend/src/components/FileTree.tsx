import { useState } from "react";
import { type GadgetFile, MANIFEST_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";

/** The draft's files: open, add, rename, delete — names are checked as they are typed. */
export function FileTree({
  editor,
  files,
  active,
  onOpen,
}: {
  editor: DraftEditor;
  files: GadgetFile[];
  active: string;
  onOpen(path: string): void;
}) {
  const [error, setError] = useState<string>();
  const [adding, setAdding] = useState<string>();

  const add = () => {
    if (adding === undefined) return;
    const result = editor.addFile(adding.trim(), adding.trim().endsWith(".ts") ? "export {};\n" : "");
    if (!result.ok) return setError(result.error);
    setError(undefined);
    onOpen(adding.trim());
    setAdding(undefined);
  };

  return (
    <nav aria-label="Files" className="text-sm">
      <div className="flex items-center justify-between px-2 py-1">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Files</h2>
        <button
          type="button"
          className="rounded px-1 text-xs hover:bg-zinc-200 dark:hover:bg-zinc-800"
          onClick={() => setAdding("")}
          aria-label="Add a file"
        >
          + file
        </button>
      </div>
      <ul>
        {files.map((file) => (
          <li
            key={file.path}
            className={`group flex items-center ${file.path === active ? "bg-zinc-200 dark:bg-zinc-800" : ""}`}
          >
            <button
              type="button"
              className="flex-1 truncate px-3 py-0.5 text-left"
              onClick={() => onOpen(file.path)}
              aria-current={file.path === active ? "true" : undefined}
            >
              {file.path}
            </button>
            {file.path !== MANIFEST_PATH && (
              <span className="hidden gap-1 pr-1 group-focus-within:flex group-hover:flex">
                <button
                  type="button"
                  className="text-xs text-zinc-600 dark:text-zinc-400 hover:text-zinc-900 dark:hover:text-zinc-100"
                  aria-label={`Rename ${file.path}`}
                  onClick={() => {
                    const to = window.prompt(`Rename ${file.path} to:`, file.path)?.trim();
                    if (!to || to === file.path) return;
                    const result = editor.renameFile(file.path, to);
                    if (!result.ok) return setError(result.error);
                    setError(undefined);
                    if (active === file.path) onOpen(to);
                  }}
                >
                  rename
                </button>
                <button
                  type="button"
                  className="text-xs text-zinc-600 dark:text-zinc-400 hover:text-red-600"
                  aria-label={`Delete ${file.path}`}
                  onClick={() => {
                    if (!window.confirm(`Delete ${file.path}?`)) return;
                    editor.deleteFile(file.path);
                    if (active === file.path) onOpen(MANIFEST_PATH);
                  }}
                >
                  delete
                </button>
              </span>
            )}
          </li>
        ))}
      </ul>
      {adding !== undefined && (
        <form
          className="flex gap-1 px-2 py-1"
          onSubmit={(e) => {
            e.preventDefault();
            add();
          }}
        >
          <input
            className="min-w-0 flex-1 rounded border border-zinc-300 bg-transparent px-1 text-xs dark:border-zinc-700"
            placeholder="lib/util.ts"
            aria-label="New file name"
            value={adding}
            onChange={(e) => setAdding(e.target.value)}
          />
          <button type="submit" className="text-xs">
            Add
          </button>
          <button
            type="button"
            className="text-xs"
            onClick={() => {
              setAdding(undefined);
              setError(undefined);
            }}
          >
            Cancel
          </button>
        </form>
      )}
      {error && (
        <p className="px-2 text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
    </nav>
  );
}
