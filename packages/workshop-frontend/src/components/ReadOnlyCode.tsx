import { useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { CodeEditor } from "./CodeEditor.tsx";
import { FileTabs } from "./FileTabs.tsx";

/** A gadget's files, read-only, with tabs. */
export function ReadOnlyCode({ files, entry, theme }: { files: GadgetFile[]; entry: string; theme: "light" | "dark" }) {
  const [active, setActive] = useState(entry);
  return (
    <div className="flex h-full flex-col">
      <FileTabs paths={files.map((file) => file.path)} active={active} onSelect={setActive} label="Files" />
      <div className="min-h-0 flex-1">
        <CodeEditor
          files={files}
          activePath={active}
          theme={theme}
          envTypes=""
          readOnly
          onChange={() => {}}
          onRun={() => {}}
          onSave={() => {}}
        />
      </div>
    </div>
  );
}
