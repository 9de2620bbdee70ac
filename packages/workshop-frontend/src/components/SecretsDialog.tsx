import { useRef, useState } from "react";
import { errorMessage } from "../error-message.ts";
import { ActionMessages } from "./ActionMessages.tsx";
import { useSecrets } from "../hooks/use-secrets.ts";
import { secretEntry, secretRows } from "../secrets/secret-rows.ts";
import { ConfirmableItem } from "./ConfirmableItem.tsx";
import { Dialog } from "./Dialog.tsx";
import { SealedValueForm } from "./SealedValueForm.tsx";

/**
 * The workspace's secrets: set or replace one (the value typed in a password field, sent once and then
 * cleared: it is never shown again, nor kept anywhere here), the list by name, size and use, Delete.
 */
export function SecretsDialog({ onClose, suggestedName }: { onClose(): void; suggestedName?: string }) {
  const { secrets, set, remove } = useSecrets();
  const [error, setError] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const listHeading = useRef<HTMLHeadingElement>(null);
  const rows = secretRows(secrets.data ?? [], Date.now());

  const deleteSecret = async (secret: string) => {
    try {
      await remove(secret);
      setNotice(`${secret} is deleted.`);
      listHeading.current?.focus();
    } catch (reason) {
      setError(errorMessage(reason));
    }
  };

  return (
    <Dialog title="Secrets" onClose={onClose} testId="secrets-dialog">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-zinc-600 dark:text-zinc-300">
          API keys and tokens for the services your agents call. A gadget gets only the secrets its{" "}
          <code>grants.secrets</code> names (as <code>env.secrets.NAME</code>) or its <code>grants.fetch.headers</code>{" "}
          fills in; shared and embedded runs get none. Values are encrypted at rest and redacted from all run output.
        </p>
        <SealedValueForm
          label="Set a secret"
          name={{
            label: "Name",
            initial: suggestedName,
            maxLength: 64,
            placeholder: "GITHUB_TOKEN",
            normalize: (text) => text.toUpperCase(),
          }}
          value={{
            label: "Value",
            hintId: "secret-value-hint",
            hint: "Setting a name that exists replaces its value. The value is never shown again, here or anywhere.",
          }}
          submit={{ idle: "Set secret", busy: "Setting…" }}
          check={secretEntry}
          send={async (entry) => {
            const info = await set(entry.name, entry.value);
            return `${info.name} is set (${info.bytes} bytes). Its value is not shown again.`;
          }}
          onError={setError}
          onNotice={setNotice}
        />
        <ActionMessages error={error} notice={notice} />
        <section aria-labelledby="secrets-list-heading" className="flex flex-col gap-1">
          <h3 id="secrets-list-heading" ref={listHeading} tabIndex={-1} className="font-semibold">
            This workspace's secrets
          </h3>
          {secrets.isError && (
            <p className="text-xs text-red-600" role="alert">
              {errorMessage(secrets.error)}
            </p>
          )}
          {secrets.isSuccess && rows.length === 0 && (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">None yet.</p>
          )}
          <ul className="flex flex-col gap-1 text-xs">
            {rows.map((row) => (
              <ConfirmableItem
                key={row.name}
                action="Delete"
                subject={row.name}
                question={`Delete ${row.name}? Agents granted it run without it from now on.`}
                confirm="Delete secret"
                onConfirm={() => deleteSecret(row.name)}
                data={{ "data-testid": "secret", "data-name": row.name }}
              >
                <p className="font-mono font-semibold">{row.name}</p>
                <p className="text-zinc-600 dark:text-zinc-400">
                  {row.size} · {row.set} · {row.usedBy}
                </p>
              </ConfirmableItem>
            ))}
          </ul>
        </section>
      </div>
    </Dialog>
  );
}
