import { lazy, Suspense, useMemo, useRef, useState } from "react";
import type { GadgetFile } from "@gadgets/workshop-shared";
import { mergedFiles, mergePairs } from "../drafts/merge.ts";
import { Dialog } from "./Dialog.tsx";
import { savedRevisionText } from "../drafts/version-words.ts";

const DiffView = lazy(() => import("../editor/diff-view.tsx"));

/** Theirs beside mine for every file that differs; the person merges on the right and saves. */
export function ConflictDialog({
  mine,
  theirs,
  theirVersion,
  theme,
  onMerged,
  onClose,
}: {
  mine: readonly GadgetFile[];
  theirs: readonly GadgetFile[];
  theirVersion: number;
  theme: "light" | "dark";
  onMerged(files: GadgetFile[]): void;
  onClose(): void;
}) {
  // Fixed when the dialog opens: typing elsewhere must not reset the merge under the person's hands.
  const [pairs] = useState(() => mergePairs(mine, theirs));
  const differing = useMemo(() => pairs.filter((pair) => pair.differs), [pairs]);
  const [active, setActive] = useState(differing[0]?.path ?? pairs[0]?.path ?? "");
  const edited = useRef(new Map<string, string>());
  const pair = pairs.find((p) => p.path === active);
  return (
    <Dialog title="Resolve the conflict" onClose={onClose} testId="conflict-dialog" size="wide">
      <div className="flex h-full flex-col gap-2 text-sm">
        <p className="text-zinc-600 dark:text-zinc-300">
          Left: {savedRevisionText(theirVersion)}, saved elsewhere. Right: your text — edit it into the merge you want
          (the arrows in the middle copy a change across), then save it on top of {savedRevisionText(theirVersion)}.
        </p>
        <div className="flex gap-1" role="tablist" aria-label="Files that differ">
          {differing.map((p) => (
            <button
              key={p.path}
              type="button"
              role="tab"
              aria-selected={p.path === active}
              className={`rounded px-2 py-0.5 ${p.path === active ? "bg-sky-100 dark:bg-sky-900" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}
              onClick={() => setActive(p.path)}
            >
              {p.path}
            </button>
          ))}
        </div>
        <div className="min-h-0 flex-1 rounded border border-zinc-200 dark:border-zinc-800">
          {pair && (
            <Suspense fallback={<p className="p-4 text-zinc-600 dark:text-zinc-400">Loading the diff…</p>}>
              <DiffView
                key={pair.path}
                path={pair.path}
                theirs={pair.theirs}
                mine={edited.current.get(pair.path) ?? pair.mine}
                theme={theme}
                onChange={(path, merged) => edited.current.set(path, merged)}
              />
            </Suspense>
          )}
        </div>
        <div className="flex justify-end gap-2">
          <button
            type="button"
            className="rounded px-3 py-1 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={onClose}
          >
            Cancel
          </button>
          <button
            type="button"
            className="rounded bg-sky-700 px-3 py-1 text-white hover:bg-sky-800"
            onClick={() => onMerged(mergedFiles(pairs, edited.current))}
          >
            Save the merge
          </button>
        </div>
      </div>
    </Dialog>
  );
}
