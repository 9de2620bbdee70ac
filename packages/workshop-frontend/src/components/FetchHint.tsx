import { useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { globalFetchHint, grantFetchEdit } from "../capabilities/fetch-hint.ts";
import type { DraftEditor } from "../drafts/draft-editor.ts";

/** Under a failed run's message: what to do about a global `fetch()`, and the one-click grant. */
export function FetchHint({
  message,
  editor,
  files,
}: {
  message: string;
  editor: DraftEditor;
  files: readonly GadgetFile[];
}) {
  const [done, setDone] = useState<string>();
  const hint = globalFetchHint(message, files);
  if (!hint) return null;
  const grant = (host: string) => {
    const edit = grantFetchEdit(files, host);
    if (!edit) return setDone("gadget.json is not valid JSON: fix it, then grant the host under Grants.");
    for (const file of edit.updates) editor.update(file.path, file.content);
    setDone(
      `Granted fetch to ${host}${edit.updates.length > 1 ? " and changed fetch( to env.fetch(" : ""}.${
        edit.leftAlone.length > 0
          ? ` In ${edit.leftAlone.join(", ")}, take env as run's second parameter and call env.fetch.`
          : " Run again."
      }`,
    );
  };
  return (
    <div
      className="rounded border border-amber-300 bg-amber-50 p-2 text-xs text-amber-950 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-50"
      data-testid="fetch-hint"
    >
      <p>{hint.text}</p>
      {done ? (
        <p className="mt-1 font-semibold" role="status">
          {done}
        </p>
      ) : (
        hint.host && (
          <button
            type="button"
            className="mt-1 min-h-6 rounded bg-amber-700 px-2 text-white hover:bg-amber-800"
            onClick={() => grant(hint.host ?? "")}
          >
            Grant fetch to {hint.host}
          </button>
        )
      )}
    </div>
  );
}
