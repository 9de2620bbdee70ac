import { callSnippets } from "../drafts/publish-flow.ts";
import { agentVersionText, pinnedAgentText } from "../drafts/version-words.ts";
import type { PublishView } from "../hooks/use-share-actions.ts";
import { CopyButton } from "./CopyButton.tsx";
import { Dialog } from "./Dialog.tsx";
import { TestDiff } from "./TestDiff.tsx";

function CopyRow({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div className="flex items-center gap-2">
      <span className="w-24 shrink-0 text-zinc-600 dark:text-zinc-400">{label}</span>
      <code className="min-w-0 flex-1 truncate font-mono" data-testid={testId}>
        {text}
      </code>
      <CopyButton text={text} what={label} />
    </div>
  );
}

function Snippet({ label, text, testId }: { label: string; text: string; testId: string }) {
  return (
    <div>
      <div className="mb-1 flex items-center justify-between">
        <h3 className="font-semibold">{label}</h3>
        <CopyButton text={text} what={`the ${label} snippet`} />
      </div>
      <pre
        className="overflow-x-auto rounded border border-zinc-200 bg-zinc-50 p-2 font-mono text-xs dark:border-zinc-800 dark:bg-zinc-950"
        data-testid={testId}
      >
        {text}
      </pre>
    </div>
  );
}

const action =
  "min-h-8 rounded border border-zinc-300 px-3 hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800";

/**
 * After publishing: the version and the agent id to copy, how to call it from Node and from the command
 * line, and its entry in the catalog. When the tests held the version back: the failing cases with
 * their diffs, the tests to open, and publishing anyway (which the version records).
 */
export function PublishDialog({
  view,
  onClose,
  onPublishAnyway,
  onOpenTests,
  onOpenCatalog,
}: {
  view: PublishView;
  onClose(): void;
  onPublishAnyway(): void;
  onOpenTests(): void;
  onOpenCatalog(name: string): void;
}) {
  if (view.kind === "tests-failed") {
    const { failing } = view;
    return (
      <Dialog title="Tests failed: not published" onClose={onClose} testId="publish-tests-failed" size="medium">
        <div className="space-y-3 text-sm">
          <p>{view.message}</p>
          {failing.status === "loading" && (
            <p className="text-zinc-600 dark:text-zinc-400">Reading the failing cases…</p>
          )}
          {failing.status === "failed" && <p className="text-red-700 dark:text-red-400">{failing.message}</p>}
          {failing.status === "ready" && (
            <ul className="space-y-2 text-xs">
              {failing.results.map((result) => (
                <li key={result.name} data-testid="failing-case">
                  <p className="px-2 font-semibold">{result.name}</p>
                  <TestDiff result={result} />
                </li>
              ))}
            </ul>
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <button type="button" className={action} onClick={onOpenTests} data-autofocus>
              Open tests
            </button>
            <button
              type="button"
              className="min-h-8 rounded bg-amber-700 px-3 text-white hover:bg-amber-800"
              onClick={onPublishAnyway}
              title="The version is published with its failing tests, and the catalog says so"
            >
              Publish anyway — recorded
            </button>
          </div>
        </div>
      </Dialog>
    );
  }
  const { version } = view;
  const snippets = callSnippets(version, view.payload);
  return (
    <Dialog
      title={`Published ${version.name} ${agentVersionText(version.version)}`}
      onClose={onClose}
      testId="publish-panel"
      size="medium"
    >
      <div className="space-y-3 text-sm">
        {view.testsOverridden && (
          <p className="text-amber-800 dark:text-amber-300">
            Published with failing tests: the catalog shows this version's test results.
          </p>
        )}
        <CopyRow label="Version" text={pinnedAgentText(version.name, version.version)} testId="published-ref" />
        <CopyRow label="Agent id" text={version.agentId} testId="published-agent-id" />
        {version.endpointUrl && <CopyRow label="Endpoint" text={version.endpointUrl} testId="published-endpoint" />}
        <Snippet label="Node" text={snippets.node} testId="snippet-node" />
        <Snippet label="Command line" text={snippets.cli} testId="snippet-cli" />
        <div className="flex justify-end gap-2">
          <button type="button" className={action} onClick={() => onOpenCatalog(version.name)} data-autofocus>
            Open in the catalog
          </button>
        </div>
      </div>
    </Dialog>
  );
}
