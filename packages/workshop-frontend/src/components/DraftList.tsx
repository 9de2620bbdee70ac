import { useState } from "react";
import { useDraftMutations, useDrafts } from "../hooks/use-drafts.ts";
import { useWorkshop } from "../hooks/workshop-context.tsx";
import { filesFromTemplate, TEMPLATES } from "../drafts/templates.ts";
import { StorageUsage } from "./StorageUsage.tsx";
import { savedRevisionText } from "../drafts/version-words.ts";

/** The workspace's drafts; new ones start from a template. */
export function DraftList({
  activeId,
  onOpen,
}: {
  activeId: string | undefined;
  onOpen(id: string | undefined): void;
}) {
  const drafts = useDrafts();
  const { create, remove } = useDraftMutations();
  const { connection } = useWorkshop();
  const [error, setError] = useState<string>();

  const createFrom = async (templateId: string) => {
    const files = filesFromTemplate(templateId);
    if (!files) return;
    try {
      const draft = await create.mutateAsync(files);
      onOpen(draft.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  const duplicate = async (id: string) => {
    try {
      const source = await (await connection.ready()).openDraft(id);
      const draft = await create.mutateAsync(source.files);
      onOpen(draft.id);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <nav aria-label="Drafts" className="text-sm">
      <div className="flex items-center justify-between px-2 py-1">
        <h2 className="text-xs font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Drafts</h2>
        <select
          aria-label="New draft from a template"
          className="rounded border border-zinc-300 bg-transparent text-xs dark:border-zinc-700"
          value=""
          onChange={(e) => void createFrom(e.target.value)}
        >
          <option value="">+ new…</option>
          {TEMPLATES.map((template) => (
            <option key={template.id} value={template.id} title={template.description}>
              {template.title}
            </option>
          ))}
        </select>
      </div>
      {drafts.isPending && <p className="px-3 text-xs text-zinc-600 dark:text-zinc-400">Loading…</p>}
      <ul>
        {drafts.data?.map((draft) => (
          <li
            key={draft.id}
            className={`group flex items-center ${draft.id === activeId ? "bg-zinc-200 dark:bg-zinc-800" : ""}`}
          >
            <button
              type="button"
              className="flex-1 truncate px-3 py-0.5 text-left"
              onClick={() => onOpen(draft.id)}
              aria-current={draft.id === activeId ? "true" : undefined}
            >
              <bdi>{draft.name}</bdi>{" "}
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{savedRevisionText(draft.version)}</span>
            </button>
            <span className="hidden gap-1 pr-1 group-focus-within:flex group-hover:flex">
              <button
                type="button"
                className="text-xs text-zinc-600 dark:text-zinc-400"
                aria-label={`Duplicate ${draft.name}`}
                onClick={() => void duplicate(draft.id)}
              >
                copy
              </button>
              <button
                type="button"
                className="text-xs text-zinc-600 dark:text-zinc-400 hover:text-red-600"
                aria-label={`Delete ${draft.name}`}
                onClick={async () => {
                  if (!window.confirm(`Delete the draft "${draft.name}"?`)) return;
                  await remove.mutateAsync(draft.id);
                  if (draft.id === activeId) onOpen(undefined);
                }}
              >
                delete
              </button>
            </span>
          </li>
        ))}
      </ul>
      {error && (
        <p className="px-2 text-xs text-red-600" role="alert">
          {error}
        </p>
      )}
      <StorageUsage />
    </nav>
  );
}
