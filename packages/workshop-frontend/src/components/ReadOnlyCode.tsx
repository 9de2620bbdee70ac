import { useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { CodeEditor } from "./CodeEditor.tsx";

/** A gadget's files, read-only, with tabs. */
export function ReadOnlyCode({ files, entry, theme }: { files: GadgetFile[]; entry: string; theme: "light" | "dark" }) {
  const [active, setActive] = useState(entry);
  return (
    <div className="flex h-full flex-col">
      <div className="flex overflow-x-auto border-b border-zinc-200 text-sm dark:border-zinc-800" role="tablist" aria-label="Files">
        {files.map((file) => (
          <button key={file.path} type="button" role="tab" aria-selected={file.path === active} className={`px-3 py-1 ${file.path === active ? "border-b-2 border-sky-500" : "text-zinc-500"}`} onClick={() => setActive(file.path)}>
            {file.path}
          </button>
        ))}
      </div>
      <div className="min-h-0 flex-1">
        <CodeEditor files={files} activePath={active} theme={theme} envTypes="" readOnly onChange={() => {}} onRun={() => {}} onSave={() => {}} />
      </div>
    </div>
  );
}
