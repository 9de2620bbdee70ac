import { useMemo } from "react";
import { highlight, type TokenKind } from "./highlight.ts";

const TOKEN_STYLE: Record<TokenKind, string> = {
  comment: "text-zinc-600 dark:text-zinc-400 italic",
  string: "text-emerald-700 dark:text-emerald-400",
  number: "text-orange-700 dark:text-orange-300",
  keyword: "text-violet-700 dark:text-violet-300",
  type: "text-sky-700 dark:text-sky-300",
  function: "text-amber-700 dark:text-amber-300",
  plain: "",
};

/** The embed's code before the reader edits: highlighted runs of text (React escapes them). */
export function HighlightedCode({ source }: { source: string }) {
  const tokens = useMemo(() => highlight(source), [source]);
  return (
    <pre className="h-full overflow-auto p-2 font-mono text-xs leading-5" data-testid="embed-code">
      {tokens.map((token, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: tokens of one text never reorder
        <span key={i} className={TOKEN_STYLE[token.kind] || undefined}>
          {token.text}
        </span>
      ))}
    </pre>
  );
}
