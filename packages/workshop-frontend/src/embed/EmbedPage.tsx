import { useEffect, useMemo, useState, useSyncExternalStore } from "react";
import { checkManifest, createRpcClient, type EmbedOptions, type JsonValue } from "@gadgets/workshop-shared";
import { CodeEditor } from "../components/CodeEditor.tsx";
import { serveHostApi } from "./embed-host-channel.ts";
import { gadgetEnvTypes } from "../editor/gadget-types.ts";
import { EmbedApiTarget, EmbedController, LazyEmbedController } from "./embed-controller.ts";
import { highlight, type TokenKind } from "./highlight.ts";

const TOKEN_STYLE: Record<TokenKind, string> = {
  comment: "text-zinc-500 italic",
  string: "text-emerald-700 dark:text-emerald-400",
  number: "text-orange-700 dark:text-orange-300",
  keyword: "text-violet-700 dark:text-violet-300",
  type: "text-sky-700 dark:text-sky-300",
  plain: "",
};

function HighlightedCode({ source }: { source: string }) {
  const tokens = useMemo(() => highlight(source), [source]);
  return (
    <pre className="h-full overflow-auto p-2 font-mono text-xs leading-5" data-testid="embed-code">
      {tokens.map((token, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one text never reorder
        <span key={i} className={TOKEN_STYLE[token.kind]}>
          {token.text}
        </span>
      ))}
    </pre>
  );
}

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
  const state = useSyncExternalStore(controller.subscribe, () => controller.state);
  const [active, setActive] = useState<string>();
  const [editing, setEditing] = useState(false);

  useEffect(() => {
    void controller.load();
  }, [controller]);

  const snapshot = state.snapshot;
  useEffect(() => {
    if (snapshot && options.autorun) void controller.run(snapshot.payload).catch(() => undefined);
  }, [snapshot, options.autorun, controller]);

  if (state.error && !snapshot) {
    return (
      <main className="p-4 text-sm" data-testid="not-found">
        <h1 className="font-semibold">Not found</h1>
        <p className="text-zinc-500">{state.error}</p>
      </main>
    );
  }
  if (!snapshot) return <p className="p-4 text-sm text-zinc-500">Loading…</p>;

  const manifest = checkManifest(state.files);
  const entry = manifest.ok ? manifest.value.entry : "gadget.json";
  const shown =
    active && state.files.some((file) => file.path === active)
      ? active
      : options.file && state.files.some((f) => f.path === options.file)
        ? options.file
        : entry;
  const code = state.files.find((file) => file.path === shown)?.content ?? "";
  const showEditor = options.view !== "console";
  const showConsole = options.view !== "editor" && options.console !== "hide";

  return (
    <div className="flex h-screen flex-col bg-white text-zinc-900 dark:bg-zinc-950 dark:text-zinc-100">
      <header className="flex items-center gap-2 border-b border-zinc-200 px-2 py-1 text-xs dark:border-zinc-800">
        <span className="font-semibold">{snapshot.name}</span>
        <button
          type="button"
          className="rounded bg-emerald-600 px-2 py-0.5 text-white disabled:opacity-50"
          disabled={state.running}
          onClick={() => void controller.run(snapshot.payload as JsonValue).catch(() => undefined)}
        >
          {state.running ? "Running…" : "Run"}
        </button>
        {!options.readonly && !editing && showEditor && (
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
      <div className="flex min-h-0 flex-1 flex-col">
        {showEditor && (
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
                  className={`px-2 py-0.5 ${file.path === shown ? "border-b-2 border-sky-500" : "text-zinc-500"}`}
                  onClick={() => setActive(file.path)}
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
                  onRun={() => void controller.run(snapshot.payload).catch(() => undefined)}
                  onSave={() => {}}
                />
              ) : (
                <HighlightedCode source={code} />
              )}
            </div>
          </div>
        )}
        {showConsole && (
          <section
            className="h-2/5 min-h-0 overflow-auto border-t border-zinc-200 font-mono text-xs dark:border-zinc-800"
            aria-label="Console"
            data-testid="embed-console"
          >
            {state.lines.map((line) => (
              <div
                key={line.id}
                className={`whitespace-pre-wrap px-2 ${line.level === "error" ? "text-red-700 dark:text-red-300" : line.level === "warn" ? "text-amber-700 dark:text-amber-300" : ""}`}
                data-testid="console-line"
              >
                {line.text}
              </div>
            ))}
            {state.outcome && (
              <div className="px-2 text-zinc-500" data-testid="embed-outcome">
                {state.outcome.status === "ok"
                  ? `→ ${JSON.stringify(state.outcome.result)}`
                  : `✗ ${state.outcome.kind}: ${state.outcome.message}`}
              </div>
            )}
          </section>
        )}
      </div>
    </div>
  );
}

/**
 * `/embed/<shareId>`; with `ctl`, nothing loads or runs until the reader clicks. The host API's
 * handshake is answered at once either way; a host's first call loads the embed as a click would.
 */
export function EmbedPage({ shareId, options }: { shareId: string; options: EmbedOptions }) {
  const [clicked, setClicked] = useState(!options.ctl);
  const lazy = useMemo(() => new LazyEmbedController(() => new EmbedController(createRpcClient(), shareId)), [shareId]);
  useEffect(() => {
    const stop = serveHostApi(
      new EmbedApiTarget(() => {
        setClicked(true);
        return lazy.get();
      }),
      options.host,
    );
    return () => {
      stop();
      lazy.dispose();
    };
  }, [lazy, options.host]);
  useEffect(() => {
    document.documentElement.classList.toggle("dark", options.theme === "dark");
  }, [options.theme]);
  if (!clicked) {
    return (
      <button
        type="button"
        className="flex h-screen w-full items-center justify-center bg-zinc-100 text-sm text-zinc-700 dark:bg-zinc-900 dark:text-zinc-200"
        onClick={() => setClicked(true)}
      >
        ▶ Click to load the playground
      </button>
    );
  }
  return <LoadedEmbed shareId={shareId} options={options} controller={lazy.get()} />;
}
