import { type GadgetFile, isModulePath, MANIFEST_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";

/** The manifest as a form; it edits the same gadget.json text the editor shows. */
export function ManifestForm({ editor, files }: { editor: DraftEditor; files: GadgetFile[] }) {
  const text = files.find((file) => file.path === MANIFEST_PATH)?.content ?? "{}";
  let manifest: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new Error("not an object");
    manifest = parsed as Record<string, unknown>;
  } catch {
    return (
      <p className="p-2 text-xs text-red-600">gadget.json is not valid JSON; fix it in the editor to use this form.</p>
    );
  }
  const set = (key: string, value: unknown) =>
    editor.update(MANIFEST_PATH, `${JSON.stringify({ ...manifest, [key]: value }, null, 2)}\n`);
  const modules = files.filter((file) => isModulePath(file.path)).map((file) => file.path);
  return (
    <form className="space-y-1 p-2 text-xs" aria-label="Manifest" onSubmit={(e) => e.preventDefault()}>
      <label className="block">
        Name
        <input
          className="block w-full rounded border border-zinc-300 bg-transparent px-1 dark:border-zinc-700"
          value={String(manifest.name ?? "")}
          onChange={(e) => set("name", e.target.value)}
        />
      </label>
      <label className="block">
        Description
        <input
          className="block w-full rounded border border-zinc-300 bg-transparent px-1 dark:border-zinc-700"
          value={String(manifest.description ?? "")}
          onChange={(e) => set("description", e.target.value)}
        />
      </label>
      <label className="block">
        Entry
        <select
          className="block w-full rounded border border-zinc-300 bg-transparent px-1 dark:border-zinc-700"
          value={String(manifest.entry ?? "")}
          onChange={(e) => set("entry", e.target.value)}
        >
          {modules.map((path) => (
            <option key={path} value={path}>
              {path}
            </option>
          ))}
        </select>
      </label>
    </form>
  );
}
