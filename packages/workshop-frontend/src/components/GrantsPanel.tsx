import { useEffect, useMemo, useState } from "react";
import { checkHost, type GadgetFile, type GadgetGrants, MANIFEST_PATH } from "@gadgets/workshop-shared";
import type { DraftEditor } from "../drafts/draft-editor.ts";
import { useSecrets } from "../hooks/use-secrets.ts";
import { grantedSecrets, secretInputProblem, secretNameList } from "../secrets/secret-rows.ts";
import { SecretsDialog } from "./SecretsDialog.tsx";

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
  const grants = (manifest?.grants ?? {}) as {
    kv?: boolean;
    catalog?: boolean;
    fetch?: { hosts?: unknown; headers?: unknown };
    secrets?: unknown;
  };
  const listed = grants.fetch?.hosts;
  const savedHosts = Array.isArray(listed) ? listed.map(String).join("\n") : "";
  const [hostText, setHostText] = useState(savedHosts);
  const [hostError, setHostError] = useState<string>();
  // The manifest changed elsewhere (its editor, another tab): show what it now says.
  useEffect(
    () => setHostText((current) => (hostList(current).join("\n") === savedHosts ? current : savedHosts)),
    [savedHosts],
  );
  const savedSecrets = Array.isArray(grants.secrets) ? grants.secrets.map(String).join("\n") : "";
  const [secretText, setSecretText] = useState(savedSecrets);
  const [secretError, setSecretError] = useState<string>();
  useEffect(
    () => setSecretText((current) => (secretNameList(current).join("\n") === savedSecrets ? current : savedSecrets)),
    [savedSecrets],
  );
  const [managing, setManaging] = useState(false);
  const { secrets } = useSecrets();
  const known = useMemo(
    () => (secrets.data ? new Set(secrets.data.map((secret) => secret.name)) : undefined),
    [secrets.data],
  );
  if (!manifest) return null;
  // Only what the schema would take is read as grants here; a manifest being typed may hold anything.
  const used = grantedSecrets(
    {
      ...(Array.isArray(grants.secrets) ? { secrets: grants.secrets.map(String) } : {}),
      ...(grants.fetch && typeof grants.fetch.headers === "object" && grants.fetch.headers !== null
        ? { fetch: { hosts: [], headers: grants.fetch.headers as NonNullable<GadgetGrants["fetch"]>["headers"] } }
        : {}),
    },
    known,
  );

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
    // Header grants stay with the hosts still granted (they may name no other).
    const headers =
      typeof grants.fetch?.headers === "object" && grants.fetch.headers !== null
        ? Object.fromEntries(Object.entries(grants.fetch.headers).filter(([host]) => list.includes(host)))
        : {};
    setGrants({
      ...grants,
      fetch: list.length > 0 ? { hosts: list, ...(Object.keys(headers).length ? { headers } : {}) } : undefined,
    });
  };
  const applySecrets = (value: string) => {
    setSecretText(value);
    const names = secretNameList(value);
    for (const name of names) {
      // Any value long enough: only the name is checked here.
      const problem = secretInputProblem(name, "x".repeat(64));
      if (problem) {
        setSecretError(problem);
        return;
      }
    }
    setSecretError(undefined);
    setGrants({ ...grants, secrets: names.length > 0 ? [...new Set(names)] : undefined });
  };

  return (
    <section className="space-y-1 p-2 text-xs" aria-label="Grants">
      <h2 className="font-semibold uppercase tracking-wide text-zinc-600 dark:text-zinc-400">Grants</h2>
      <p className="text-zinc-600 dark:text-zinc-400">
        A gadget reaches nothing outside its isolate but what it is granted here.
      </p>
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
      <label className="block">
        <b>secrets</b> — the workspace's secrets this gadget reads as <code>env.secrets.NAME</code>, one name per line
        (shared and embedded runs get none):
        <textarea
          className="mt-1 block h-10 w-full rounded border border-zinc-300 bg-transparent p-1 font-mono dark:border-zinc-700"
          value={secretText}
          onChange={(e) => applySecrets(e.target.value)}
          aria-label="Secrets this gadget may read"
          spellCheck={false}
        />
      </label>
      {secretError && (
        <p className="text-red-600" role="alert">
          {secretError}
        </p>
      )}
      {used.length > 0 && (
        <ul className="space-y-0.5" aria-label="Secrets this gadget uses" data-testid="granted-secrets">
          {used.map((secret) => (
            <li key={`${secret.name} ${secret.where}`}>
              <code>{secret.name}</code> → {secret.where}
              {secret.isSet === false && <span className="text-amber-600"> (not set in this workspace)</span>}
            </li>
          ))}
        </ul>
      )}
      <button
        type="button"
        className="rounded border border-zinc-300 px-2 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
        onClick={() => setManaging(true)}
      >
        Manage secrets…
      </button>
      {managing && (
        <SecretsDialog
          onClose={() => setManaging(false)}
          suggestedName={used.find((secret) => secret.isSet === false)?.name}
        />
      )}
    </section>
  );
}
