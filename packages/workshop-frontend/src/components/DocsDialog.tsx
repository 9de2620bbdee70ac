import { useQuery } from "@tanstack/react-query";
import type { AgentSummary } from "@gadgets/workshop-shared";
import contract from "../../AGENTS.md?raw";
import { agentSchemaTexts } from "../catalog/agent-schemas.ts";
import { useConnectionState, useWorkshop } from "../hooks/workshop-context.tsx";
import { Dialog } from "./Dialog.tsx";
import { Markdown } from "./Markdown.tsx";
import { TestBadge } from "./TestBadge.tsx";

/** What a version takes and returns: the types its schemas describe, each with the schema itself. */
function AgentSchemas({ agent }: { agent: AgentSummary }) {
  const texts = agentSchemaTexts(agent);
  if (texts.length === 0)
    return (
      <p className="text-xs text-zinc-600 dark:text-zinc-400">
        No input or output schema: it takes and returns any JSON.
      </p>
    );
  return (
    <div className="space-y-1" data-testid="agent-schemas">
      {texts.map((text) => (
        <div key={text.which} data-testid={`agent-${text.which}-schema`}>
          <p className="text-xs font-semibold">{text.which === "input" ? "Input" : "Output"}</p>
          <pre className="overflow-auto rounded bg-zinc-50 p-1 text-xs dark:bg-zinc-950">
            <code>{text.type}</code>
          </pre>
          <details className="text-xs">
            <summary className="cursor-pointer text-zinc-600 dark:text-zinc-400">{text.which} JSON Schema</summary>
            <pre className="overflow-auto rounded bg-zinc-50 p-1 dark:bg-zinc-950">
              <code>{text.json}</code>
            </pre>
          </details>
        </div>
      ))}
    </div>
  );
}

/**
 * Help (the gadget contract and its capabilities) or the catalog of published agents with their docs and
 * schemas; `agent` names the entry to scroll to and mark (the publish panel's link).
 */
export function DocsDialog({
  view,
  onClose,
  agent: shownAgent,
}: {
  view: "help" | "catalog";
  onClose(): void;
  agent?: string;
}) {
  const { connection } = useWorkshop();
  const state = useConnectionState();
  const agents = useQuery({
    queryKey: ["agents"],
    enabled: view === "catalog" && state.status === "connected",
    queryFn: async () => (await connection.ready()).listAgents(),
  });
  return (
    <Dialog title={view === "help" ? "Help" : "Catalog"} onClose={onClose} testId={`${view}-dialog`} size="medium">
      {view === "help" ? (
        <Markdown source={contract} />
      ) : agents.data?.length === 0 ? (
        <p className="text-sm text-zinc-600 dark:text-zinc-400">
          No published agents yet. Publish a draft to add it here; other gadgets with the catalog grant can then call it
          by name.
        </p>
      ) : (
        <ul className="space-y-3">
          {agents.data?.map((agent) => (
            <li
              key={agent.agentId}
              className={`rounded border p-2 ${agent.name === shownAgent ? "border-sky-500" : "border-zinc-200 dark:border-zinc-800"}`}
              data-testid="catalog-agent"
              aria-current={agent.name === shownAgent || undefined}
              ref={agent.name === shownAgent ? (entry) => entry?.scrollIntoView({ block: "nearest" }) : undefined}
            >
              <p className="font-semibold">
                {agent.name}{" "}
                <span className="text-xs font-normal text-zinc-600 dark:text-zinc-400">
                  v{agent.latestVersion} · {agent.agentId}
                </span>{" "}
                <TestBadge tests={agent.tests} />
              </p>
              {agent.description && <p className="text-sm text-zinc-600 dark:text-zinc-300">{agent.description}</p>}
              <p className="text-xs text-zinc-600 dark:text-zinc-400">
                grants:{" "}
                {[
                  agent.grants.kv && "kv",
                  agent.grants.catalog && "catalog",
                  agent.grants.fetch && `fetch (${agent.grants.fetch.hosts.join(", ")})`,
                ]
                  .filter(Boolean)
                  .join(", ") || "none"}
              </p>
              <AgentSchemas agent={agent} />
              {agent.docs ? (
                <Markdown source={agent.docs} />
              ) : (
                <p className="text-xs text-zinc-600 dark:text-zinc-400">No README.md in this agent.</p>
              )}
            </li>
          ))}
        </ul>
      )}
    </Dialog>
  );
}
