import { useEffect, useState } from "react";
import type { EmbedOptions } from "@gadgets/workshop-shared";
import { CodeEditor } from "../components/CodeEditor.tsx";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import { EmbedConsole } from "./EmbedConsole.tsx";
import type { EmbedController } from "./embed-controller.ts";
import { panesOf, shownPath } from "./embed-view.ts";
import { HighlightedCode } from "./HighlightedCode.tsx";
import { useEmbedState, useLazyEmbed } from "./use-embed.ts";

/** Embedded (anonymous) runs get no capabilities; the template's `env: GadgetEnv` still type-checks. */
const SHARED_ENV_TYPES = gadgetEnvTypes({});

/** The embedded playground: first paint is highlighted text; Monaco arrives only when the reader edits. */
function LoadedEmbed({
  shareId,
  options,
  controller,
}: {
  shareId: string;
  options: EmbedOptions;
  controller: EmbedController;
}) {
  const state = useEmbedState(controller, options.autorun);
  const [picked, setPicked] = useState<string>();
  const [editing, setEditing] = useState(false);

  const snapshot = state.snapshot;
  if (state.error && !snapshot) {
    return (
      <main className="p-4 text-sm" data-testid="not-found">
        <h1 className="font-semibold">Not found</h1>
        <p className="text-zinc-600 dark:text-zinc-400">{state.error}</p>
      </main>
    );
  }
  if (!snapshot) return <p className="p-4 text-sm text-zinc-600 dark:text-zinc-400">Loading…</p>;

  const shown = shownPath(state.files, picked, options.file);
  const code = state.files.find((file) => file.path === shown)?.content ?? "";
  const panes = panesOf(options);
  const run = () => void controller.run(snapshot.payload).catch(() => undefined);

  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 text-xs dark:border-zinc-800">
        <bdi className="font-semibold">{snapshot.name}</bdi>
        <button
          type="button"
          className="rounded bg-emerald-700 px-2 py-0.5 text-white disabled:opacity-50"
          disabled={state.running}
          onClick={run}
        >
          {state.running ? "Running…" : "Run"}
        </button>
        {!options.readonly && !editing && panes.editor && (
          <button
            type="button"
            className="rounded px-2 py-0.5 hover:bg-zinc-200 dark:hover:bg-zinc-800"
            onClick={() => setEditing(true)}
          >
            Edit
          </button>
        )}
        <a
          className="ml-auto text-sky-700 underline dark:text-sky-300"
          href={`/s/${encodeURIComponent(shareId)}?fork=1`}
          target="_blank"
          rel="noopener noreferrer"
        >
          Open in Workshop
        </a>
      </header>
      <main className="flex min-h-0 flex-1 flex-col">
        {panes.editor && (
          <div className="flex min-h-0 flex-1 flex-col">
            <div
              className="flex border-b border-zinc-200 text-xs dark:border-zinc-800"
              role="tablist"
              aria-label="Files"
            >
              {state.files.map((file) => (
                <button
                  key={file.path}
                  type="button"
                  role="tab"
                  aria-selected={file.path === shown}
                  className={`px-2 py-0.5 ${file.path === shown ? "border-b-2 border-sky-500" : "text-zinc-600 dark:text-zinc-400"}`}
                  onClick={() => setPicked(file.path)}
                >
                  {file.path}
                </button>
              ))}
            </div>
            <div className="min-h-0 flex-1">
              {editing ? (
                <CodeEditor
                  files={state.files}
                  activePath={shown}
                  theme={options.theme}
                  envTypes={SHARED_ENV_TYPES}
                  onChange={(path, content) =>
                    controller.setFiles(state.files.map((file) => (file.path === path ? { ...file, content } : file)))
                  }
                  onRun={run}
                  onSave={() => {}}
                />
              ) : (
                <HighlightedCode source={code} />
              )}
            </div>
          </div>
        )}
        {panes.console && <EmbedConsole lines={state.lines} outcome={state.outcome} />}
      </main>
    </div>
  );
}

/**
 * `/embed/<shareId>`; with `ctl`, nothing loads or runs until the reader clicks. The host API's
 * handshake is answered at once either way; a host's first call loads the embed as a click would.
 */
export function EmbedPage({ shareId, options }: { shareId: string; options: EmbedOptions }) {
  const { controller, load } = useLazyEmbed(shareId, options.host, options.ctl);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", options.theme === "dark");
  }, [options.theme]);
  if (!controller) {
    return (
      <button
        type="button"
        className="flex h-screen w-full items-center justify-center bg-zinc-100 text-sm text-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
        onClick={load}
      >
        ▶ Click to load the playground
      </button>
    );
  }
  return <LoadedEmbed shareId={shareId} options={options} controller={controller} />;
}
