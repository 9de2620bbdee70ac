import { useRef, useState } from "react";
import { errorMessage } from "../error-message.ts";
import { useRegistry } from "../hooks/use-registry.ts";
import { type RegistryView, registryEntry, registryView } from "../packages/registry-setting.ts";
import { ConfirmableItem } from "./ConfirmableItem.tsx";
import { Dialog } from "./Dialog.tsx";

const field = "rounded border border-zinc-300 bg-transparent px-1 font-mono text-xs dark:border-zinc-700";

function RegistryDetails({ view }: { view: RegistryView }) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-2 text-xs">
      <dt className="text-zinc-600 dark:text-zinc-400">Registry</dt>
      <dd className="break-all font-mono" data-testid="registry-url">
        {view.url}
      </dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Setting</dt>
      <dd data-testid="registry-setting">{view.setting}</dd>
      <dt className="text-zinc-600 dark:text-zinc-400">Token</dt>
      <dd data-testid="registry-token">{view.token}</dd>
    </dl>
  );
}

/**
 * The npm registry this workspace resolves `dependencies` against: the URL, whose setting it is and
 * whether a token is kept; set a URL and token (typed in a password field, sent once and then cleared:
 * it is never shown again, nor kept anywhere here), or go back to the Workshop's default.
 */
export function RegistryDialog({ onClose }: { onClose(): void }) {
  const { registry, set } = useRegistry();
  const [url, setUrl] = useState("");
  const [token, setToken] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const urlField = useRef<HTMLInputElement>(null);
  const view = registry.data && registryView(registry.data);

  const submit = async () => {
    const entry = registryEntry(url, token);
    if (!entry.ok) return setError(entry.error);
    setBusy(true);
    setError(undefined);
    try {
      const info = await set(entry.value);
      setToken("");
      setUrl("");
      setNotice(
        info.hasToken
          ? `This workspace now resolves packages from ${info.url}. Its token is kept and never shown again.`
          : `This workspace now resolves packages from ${info.url}, without a token.`,
      );
    } catch (reason) {
      setError(errorMessage(reason));
    } finally {
      setBusy(false);
    }
  };

  const reset = async () => {
    try {
      const info = await set(null);
      setNotice(`Back to the Workshop's default registry, ${info.url}; the token is deleted.`);
      urlField.current?.focus();
    } catch (reason) {
      setError(errorMessage(reason));
    }
  };

  return (
    <Dialog title="Package registry" onClose={onClose} testId="registry-dialog">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-zinc-600 dark:text-zinc-300">
          The npm registry this workspace's drafts resolve <code>dependencies</code> against. A private registry's token
          is kept sealed with the workspace and sent only to that registry. Drafts already locked keep running their
          lock; new or updated dependencies resolve against the registry set here.
        </p>
        {registry.isError && (
          <p className="text-xs text-red-600" role="alert">
            {errorMessage(registry.error)}
          </p>
        )}
        {view && (
          <ul aria-label="The workspace's registry">
            {registry.data?.isDefault ? (
              <li className="rounded border border-zinc-200 p-1 dark:border-zinc-800" data-testid="registry-current">
                <RegistryDetails view={view} />
              </li>
            ) : (
              <ConfirmableItem
                action="Reset"
                subject="to the Workshop's default registry"
                question="Use the Workshop's default registry again? The token kept for this one is deleted."
                confirm="Use the default"
                onConfirm={reset}
                data={{ "data-testid": "registry-current" }}
              >
                <RegistryDetails view={view} />
              </ConfirmableItem>
            )}
          </ul>
        )}
        <form
          className="flex flex-col gap-1"
          aria-label="Set the registry"
          onSubmit={(event) => {
            event.preventDefault();
            void submit();
          }}
        >
          <div className="flex flex-wrap items-center gap-2">
            <label className="flex flex-1 items-center gap-1 text-xs">
              URL
              <input
                ref={urlField}
                className={`${field} flex-1`}
                value={url}
                maxLength={2048}
                placeholder="https://npm.example.com/"
                spellCheck={false}
                autoComplete="off"
                onChange={(e) => setUrl(e.target.value)}
                data-autofocus
              />
            </label>
            <label className="flex flex-1 items-center gap-1 text-xs">
              Token
              <input
                className={`${field} flex-1`}
                type="password"
                value={token}
                autoComplete="new-password"
                spellCheck={false}
                onChange={(e) => setToken(e.target.value)}
                aria-describedby="registry-token-hint"
              />
            </label>
            <button
              type="submit"
              className="rounded bg-sky-700 px-2 py-0.5 text-xs text-white hover:bg-sky-800 disabled:opacity-50"
              disabled={busy}
            >
              {busy ? "Saving…" : "Save registry"}
            </button>
          </div>
          <span id="registry-token-hint" className="text-xs text-zinc-600 dark:text-zinc-400">
            Saving replaces the URL and the token: leave the token empty for a registry that needs none. The token is
            never shown again, here or anywhere.
          </span>
        </form>
        {error && (
          <p className="text-xs text-red-600" role="alert">
            {error}
          </p>
        )}
        {notice && (
          <p className="text-xs text-emerald-700 dark:text-emerald-400" role="status">
            {notice}
          </p>
        )}
      </div>
    </Dialog>
  );
}
