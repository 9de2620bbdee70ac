import { useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import { CodeEditor } from "./CodeEditor.tsx";
import { FileTabs } from "./FileTabs.tsx";

/** Shared runs get no capabilities: the env type says so, and the template's `env: GadgetEnv` type-checks. */
const SHARED_ENV_TYPES = gadgetEnvTypes({});

/** A gadget's files, read-only, with tabs. */
export function ReadOnlyCode({
  files,
  entry,
  theme,
  readOnlyMessage,
}: {
  files: GadgetFile[];
  entry: string;
  theme: "light" | "dark";
  /** What someone who types into the code is told (how to get an editable copy). */
  readOnlyMessage: string;
}) {
  const [active, setActive] = useState(entry);
  return (
    <div className="flex h-full flex-col">
      <FileTabs paths={files.map((file) => file.path)} active={active} onSelect={setActive} label="Files" />
      <div className="min-h-0 flex-1">
        <CodeEditor
          files={files}
          activePath={active}
          theme={theme}
          envTypes={SHARED_ENV_TYPES}
          readOnly
          readOnlyMessage={readOnlyMessage}
          onChange={() => {}}
          onRun={() => {}}
          onSave={() => {}}
        />
      </div>
    </div>
  );
}
