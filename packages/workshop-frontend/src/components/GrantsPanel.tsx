import { useEffect, useState } from "react";
import { checkHost, type GadgetFile, MANIFEST_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";

const hostList = (text: string) =>
  text
    .split(/[\s,]+/)
    .map((host) => host.trim().toLowerCase())
    .filter(Boolean);

/** The manifest's grants in plain words; editing here edits gadget.json (and the editor's types follow). */
export function GrantsPanel({ editor, files }: { editor: DraftEditor; files: GadgetFile[] }) {
  const text = files.find((file) => file.path === MANIFEST_PATH)?.content ?? "{}";
  let manifest: Record<string, unknown> | undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed))
      manifest = parsed as Record<string, unknown>;
  } catch {
    manifest = undefined;
  }
  const grants = (manifest?.grants ?? {}) as { kv?: boolean; catalog?: boolean; fetch?: { hosts?: unknown } };
  const listed = grants.fetch?.hosts;
  const savedHosts = Array.isArray(listed) ? listed.map(String).join("\n") : "";
  const [hostText, setHostText] = useState(savedHosts);
  const [hostError, setHostError] = useState<string>();
  // The manifest changed elsewhere (its editor, another tab): show what it now says.
  useEffect(
    () => setHostText((current) => (hostList(current).join("\n") === savedHosts ? current : savedHosts)),
    [savedHosts],
  );
  if (!manifest) return null;

  const setGrants = (next: Record<string, unknown>) => {
    const cleaned = Object.fromEntries(
      Object.entries(next).filter(([, value]) => value !== undefined && value !== false),
    );
    editor.update(MANIFEST_PATH, `${JSON.stringify({ ...manifest, grants: cleaned }, null, 2)}\n`);
  };
  const applyHosts = (value: string) => {
    setHostText(value);
    const list = hostList(value);
    for (const host of list) {
      const checked = checkHost(host);
      if (!checked.ok) {
        setHostError(checked.error);
        return;
      }
    }
    setHostError(undefined);
    setGrants({ ...grants, fetch: list.length > 0 ? { hosts: list } : undefined });
  };

  return (
    <section className="space-y-1 p-2 text-xs" aria-label="Grants">
      <h2 className="font-semibold uppercase tracking-wide text-zinc-500">Grants</h2>
      <p className="text-zinc-500">A gadget reaches nothing outside its isolate but what it is granted here.</p>
      <label className="flex items-start gap-1">
        <input
          type="checkbox"
          checked={grants.kv === true}
          onChange={(e) => setGrants({ ...grants, kv: e.target.checked })}
        />
        <span>
          <b>kv</b> — keep up to 1 MB of its own data (<code>env.kv</code>), saved with the workspace.
        </span>
      </label>
      <label className="flex items-start gap-1">
        <input
          type="checkbox"
          checked={grants.catalog === true}
          onChange={(e) => setGrants({ ...grants, catalog: e.target.checked })}
        />
        <span>
          <b>catalog</b> — call other published agents of this workspace (<code>env.catalog</code>); each runs with its
          own grants.
        </span>
      </label>
      <label className="block">
        <b>fetch</b> — HTTP to exactly these hosts (<code>env.fetch</code>), one per line, like{" "}
        <code>api.example.com</code> or <code>127.0.0.1:8080</code>:
        <textarea
          className="mt-1 block h-14 w-full rounded border border-zinc-300 bg-transparent p-1 font-mono dark:border-zinc-700"
          value={hostText}
          onChange={(e) => applyHosts(e.target.value)}
          aria-label="Hosts this gadget may fetch from"
          spellCheck={false}
        />
      </label>
      {hostError && (
        <p className="text-red-600" role="alert">
          {hostError}
        </p>
      )}
    </section>
  );
}
