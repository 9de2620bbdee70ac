import { useState } from "react";
import { type EmbedOptions, embedUrl } from "@gadgets/workshop-shared/embed";
import { Dialog } from "./Dialog.tsx";

/** The origin a person typed for `host`: empty is fine (no restriction), anything else must be http(s). */
export function hostOrigin(text: string): { ok: true; value?: string } | { ok: false; error: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: true };
  try {
    const url = new URL(trimmed);
    if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("not http");
    return { ok: true, value: url.origin };
  } catch {
    return {
      ok: false,
      error: `"${trimmed}" is not a web origin. Write it like https://blog.example.com (scheme, host and port only).`,
    };
  }
}

const copy = (text: string) => void navigator.clipboard?.writeText(text).catch(() => undefined);

/** The link to a share, and an embed snippet with its options and a live preview. */
export function ShareDialog({ shareId, files, onClose }: { shareId: string; files: string[]; onClose(): void }) {
  const origin = window.location.origin;
  const [options, setOptions] = useState<Partial<EmbedOptions>>({ theme: "light", view: "both", console: "show" });
  const link = `${origin}/s/${shareId}`;
  const src = embedUrl(origin, shareId, options);
  const snippet = `<iframe src="${src}" title="Gadget Workshop playground" width="100%" height="420" style="border:0" loading="lazy"></iframe>`;
  const set = (patch: Partial<EmbedOptions>) => setOptions((current) => ({ ...current, ...patch }));
  const [hostText, setHostText] = useState("");
  const host = hostOrigin(hostText);
  const setHost = (text: string) => {
    setHostText(text);
    const origin = hostOrigin(text);
    setOptions(({ host: _old, ...rest }) => (origin.ok && origin.value ? { ...rest, host: origin.value } : rest));
  };
  return (
    <Dialog title="Share" onClose={onClose} testId="share-dialog" size="medium">
      <div className="flex flex-col gap-2 text-sm">
        <label className="flex items-center gap-2">
          Link
          <input
            className="flex-1 rounded border border-zinc-300 bg-transparent px-1 font-mono text-xs dark:border-zinc-700"
            readOnly
            value={link}
            data-testid="share-link"
          />
          <button
            type="button"
            className="rounded border border-zinc-300 px-2 dark:border-zinc-700"
            onClick={() => copy(link)}
          >
            Copy
          </button>
        </label>
        <fieldset className="flex flex-wrap gap-3 text-xs">
          <legend className="mb-1 font-semibold">Embed options</legend>
          <label>
            theme{" "}
            <select
              value={options.theme}
              onChange={(e) => set({ theme: e.target.value as EmbedOptions["theme"] })}
              className="bg-transparent"
            >
              <option>light</option>
              <option>dark</option>
            </select>
          </label>
          <label>
            view{" "}
            <select
              value={options.view}
              onChange={(e) => set({ view: e.target.value as EmbedOptions["view"] })}
              className="bg-transparent"
            >
              <option>both</option>
              <option>editor</option>
              <option>console</option>
            </select>
          </label>
          <label>
            console{" "}
            <select
              value={options.console}
              onChange={(e) => set({ console: e.target.value as EmbedOptions["console"] })}
              className="bg-transparent"
            >
              <option>show</option>
              <option>hide</option>
            </select>
          </label>
          <label>
            file{" "}
            <select
              value={options.file ?? ""}
              onChange={(e) => set({ file: e.target.value || undefined })}
              className="bg-transparent"
            >
              <option value="">entry</option>
              {files.map((file) => (
                <option key={file}>{file}</option>
              ))}
            </select>
          </label>
          {(["readonly", "autorun", "ctl"] as const).map((flag) => (
            <label key={flag} className="flex items-center gap-1">
              <input
                type="checkbox"
                checked={options[flag] ?? false}
                onChange={(e) => set({ [flag]: e.target.checked })}
              />
              {flag === "ctl" ? "click to load" : flag}
            </label>
          ))}
        </fieldset>
        <label className="flex items-center gap-2 text-xs">
          host
          <input
            className="flex-1 rounded border border-zinc-300 bg-transparent px-1 font-mono dark:border-zinc-700"
            placeholder="https://your-site.example (the only page allowed to drive the embed; empty: its parent)"
            value={hostText}
            onChange={(e) => setHost(e.target.value)}
            aria-describedby="embed-host-help"
          />
        </label>
        <p
          id="embed-host-help"
          className={`text-xs ${host.ok ? "text-zinc-600 dark:text-zinc-400" : "text-red-600"}`}
          role="note"
        >
          {host.ok
            ? "With a host, only that origin's page can run the embed or change its files through the host API."
            : host.error}
        </p>
        <label className="flex flex-col gap-1">
          Snippet
          <textarea
            className="h-16 rounded border border-zinc-300 bg-transparent p-1 font-mono text-xs dark:border-zinc-700"
            readOnly
            value={snippet}
            data-testid="embed-snippet"
          />
        </label>
        <button
          type="button"
          className="self-start rounded border border-zinc-300 px-2 dark:border-zinc-700"
          onClick={() => copy(snippet)}
        >
          Copy snippet
        </button>
        <p className="text-xs text-zinc-600 dark:text-zinc-400">Preview</p>
        <iframe
          key={src}
          src={src}
          title="Embed preview"
          className="h-[420px] w-full rounded border border-zinc-300 dark:border-zinc-700"
        />
      </div>
    </Dialog>
  );
}
