import { useEffect, useState } from "react";

/** Copies `text` to the clipboard and says so for a moment (also to screen readers). */
export function CopyButton({ text, label = "Copy", what }: { text: string; label?: string; what?: string }) {
  const [copied, setCopied] = useState<"copied" | "failed">();
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(undefined), 2000);
    return () => clearTimeout(timer);
  }, [copied]);
  const copy = () =>
    void navigator.clipboard
      ?.writeText(text)
      .then(() => setCopied("copied"))
      .catch(() => setCopied("failed"));
  return (
    <button
      type="button"
      className="min-h-6 min-w-6 shrink-0 rounded border border-zinc-300 px-2 text-xs hover:bg-zinc-100 dark:border-zinc-700 dark:hover:bg-zinc-800"
      onClick={copy}
    >
      {copied === "copied" ? "Copied" : copied === "failed" ? "Copy failed: select and copy it" : label}
      {what && <span className="sr-only"> {what}</span>}
      <span className="sr-only" aria-live="polite">
        {copied === "copied" ? "Copied to the clipboard" : ""}
      </span>
    </button>
  );
}
