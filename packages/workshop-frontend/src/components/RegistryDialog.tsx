import { useRef, useState } from "react";
import { errorMessage } from "../error-message.ts";
import { ActionMessages } from "./ActionMessages.tsx";
import { useRegistry } from "../hooks/use-registry.ts";
import { type RegistryView, registryEntry, registryView } from "../packages/registry-setting.ts";
import { ConfirmableItem } from "./ConfirmableItem.tsx";
import { Dialog } from "./Dialog.tsx";
import { SealedValueForm } from "./SealedValueForm.tsx";

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
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const urlField = useRef<HTMLInputElement>(null);
  const view = registry.data && registryView(registry.data);

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
        <SealedValueForm
          label="Set the registry"
          name={{
            label: "URL",
            maxLength: 2048,
            placeholder: "https://npm.example.com/",
            wide: true,
            inputRef: urlField,
          }}
          value={{
            label: "Token",
            hintId: "registry-token-hint",
            hint: "Saving replaces the URL and the token: leave the token empty for a registry that needs none. The token is never shown again, here or anywhere.",
          }}
          submit={{ idle: "Save registry", busy: "Saving…" }}
          check={registryEntry}
          send={async (entry) => {
            const info = await set(entry);
            return info.hasToken
              ? `This workspace now resolves packages from ${info.url}. Its token is kept and never shown again.`
              : `This workspace now resolves packages from ${info.url}, without a token.`;
          }}
          onError={setError}
          onNotice={setNotice}
        />
        <ActionMessages error={error} notice={notice} />
      </div>
    </Dialog>
  );
}
