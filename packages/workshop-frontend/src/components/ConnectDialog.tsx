import { useEffect, useMemo, useRef, useState } from "react";
import type { CreatedKey } from "@gadgets/workshop-shared";
import { clientSnippets, KEY_PLACEHOLDER, mcpUrl } from "../connect/client-snippets.ts";
import { keyRows } from "../connect/key-rows.ts";
import { errorMessage } from "../error-message.ts";
import { useApiKeys } from "../hooks/use-api-keys.ts";
import { CopyButton } from "./CopyButton.tsx";
import { ConfirmableItem } from "./ConfirmableItem.tsx";
import { Dialog } from "./Dialog.tsx";

const field = "rounded border border-zinc-300 bg-transparent px-1 font-mono text-xs dark:border-zinc-700";

/**
 * Connect an MCP client: the Workshop's MCP URL, a `call` key made for the client (its secret shown
 * here once, held only by this dialog, gone when it closes), configuration for common clients with the
 * key in it, and the workspace's keys with Revoke.
 */
export function ConnectDialog({ onClose }: { onClose(): void }) {
  const url = mcpUrl(window.location.origin);
  const { keys, agents, createCallKey, revoke } = useApiKeys();
  const [name, setName] = useState("mcp-client");
  const [created, setCreated] = useState<CreatedKey>();
  const [making, setMaking] = useState(false);
  const [error, setError] = useState<string>();
  const keyField = useRef<HTMLInputElement>(null);
  const listHeading = useRef<HTMLHeadingElement>(null);
  const snippets = useMemo(() => clientSnippets(url, created?.key ?? KEY_PLACEHOLDER), [url, created]);
  const agentNames = useMemo(
    () => new Map((agents.data ?? []).map((agent) => [agent.agentId, agent.name])),
    [agents.data],
  );
  const rows = keyRows(keys.data ?? [], agentNames, Date.now());

  useEffect(() => {
    if (created) keyField.current?.select();
  }, [created]);

  const make = async () => {
    const trimmed = name.trim();
    if (!trimmed) return setError("Give the key a name, like claude-desktop: it is how you tell keys apart.");
    setMaking(true);
    setError(undefined);
    try {
      setCreated(await createCallKey(trimmed));
    } catch (reason) {
      setError(errorMessage(reason));
    } finally {
      setMaking(false);
    }
  };

  const revokeKey = async (keyId: string) => {
    try {
      await revoke(keyId);
      if (created?.info.keyId === keyId) setCreated(undefined);
      listHeading.current?.focus();
    } catch (reason) {
      setError(errorMessage(reason));
    }
  };

  return (
    <Dialog title="Connect a client" onClose={onClose} testId="connect-dialog" size="medium">
      <div className="flex flex-col gap-3 text-sm">
        <p className="text-zinc-600 dark:text-zinc-300">
          An MCP client (Claude, Cursor, VS Code, your own code) can list and call this workspace's published agents as
          tools, and run code that calls them (<code>run_code</code>), with an API key.
        </p>
        <label className="flex items-center gap-2">
          MCP URL
          <input className={`${field} flex-1`} readOnly value={url} data-testid="mcp-url" />
          <CopyButton text={url} what="the MCP URL" />
        </label>

        <section aria-labelledby="connect-key-heading" className="flex flex-col gap-1">
          <h3 id="connect-key-heading" className="font-semibold">
            A key for this client
          </h3>
          {created ? (
            <div className="flex flex-col gap-1 rounded border border-amber-400 bg-amber-50 p-2 dark:bg-amber-950/40">
              <p className="text-xs text-amber-900 dark:text-amber-200" role="status">
                Copy the key “{created.info.name}” now: it is shown only this once, and is gone when this dialog closes.
                It can list and run this workspace's published agents; keep it as secret as a password.
              </p>
              <div className="flex items-center gap-2">
                <input
                  ref={keyField}
                  className={`${field} flex-1`}
                  readOnly
                  value={created.key}
                  aria-label="The new key"
                  data-testid="new-key"
                />
                <CopyButton text={created.key} what="the key" />
              </div>
            </div>
          ) : (
            <form
              className="flex flex-wrap items-center gap-2"
              onSubmit={(event) => {
                event.preventDefault();
                void make();
              }}
            >
              <label className="flex items-center gap-1 text-xs">
                Name
                <input
                  className={field}
                  value={name}
                  maxLength={64}
                  onChange={(e) => setName(e.target.value)}
                  aria-describedby="connect-key-scope"
                />
              </label>
              <button
                type="submit"
                className="rounded bg-sky-700 px-2 py-0.5 text-xs text-white hover:bg-sky-800 disabled:opacity-50"
                disabled={making}
                data-autofocus
              >
                {making ? "Making the key…" : "Make a key for this client"}
              </button>
              <span id="connect-key-scope" className="text-xs text-zinc-600 dark:text-zinc-400">
                Scope “call”: it lists and runs published agents, and nothing else.
              </span>
            </form>
          )}
          {error && (
            <p className="text-xs text-red-600" role="alert">
              {error}
            </p>
          )}
        </section>

        <section aria-labelledby="connect-config-heading" className="flex flex-col gap-2">
          <h3 id="connect-config-heading" className="font-semibold">
            Configuration
          </h3>
          {!created && (
            <p className="text-xs text-zinc-600 dark:text-zinc-400">Make a key above and it is filled in here.</p>
          )}
          {snippets.map((snippet) => (
            <div
              key={snippet.id}
              className="flex flex-col gap-0.5"
              data-testid="client-snippet"
              data-client={snippet.id}
            >
              <div className="flex items-center gap-2">
                <h4 className="text-xs font-semibold">{snippet.client}</h4>
                <span className="flex-1 text-xs text-zinc-600 dark:text-zinc-400">{snippet.where}</span>
                <CopyButton text={snippet.text} what={`the ${snippet.client} configuration`} />
              </div>
              <pre className="overflow-auto rounded border border-zinc-200 bg-zinc-50 p-1 text-xs dark:border-zinc-800 dark:bg-zinc-950">
                <code>{snippet.text}</code>
              </pre>
            </div>
          ))}
        </section>

        <section aria-labelledby="connect-keys-heading" className="flex flex-col gap-1 text-xs">
          <h3 id="connect-keys-heading" ref={listHeading} tabIndex={-1} className="text-sm font-semibold outline-none">
            Keys of this workspace
          </h3>
          {keys.error ? (
            <p className="text-red-600" role="alert">
              {errorMessage(keys.error)}
            </p>
          ) : rows.length === 0 ? (
            <p className="text-zinc-600 dark:text-zinc-400">{keys.isPending ? "Loading the keys…" : "No keys yet."}</p>
          ) : (
            <ul className="flex flex-col gap-1">
              {rows.map((row) => (
                <ConfirmableItem
                  key={row.keyId}
                  action="Revoke"
                  subject={row.name}
                  question={`Revoke “${row.name}”? Every client using it stops working at once.`}
                  confirm="Revoke key"
                  onConfirm={() => revokeKey(row.keyId)}
                  data={{ "data-testid": "api-key", "data-key-id": row.keyId }}
                >
                  <p className="font-semibold">{row.name}</p>
                  <p className="text-zinc-600 dark:text-zinc-400">
                    {row.scope} · {row.agents} · made {row.created} · {row.lastUsed}
                  </p>
                </ConfirmableItem>
              ))}
            </ul>
          )}
        </section>
      </div>
    </Dialog>
  );
}
