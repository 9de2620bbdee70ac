import type { ReactNode } from "react";
import ReactMarkdown, { type Components } from "react-markdown";

/**
 * Docs as Markdown (the gadget contract, agents' READMEs). Agents' docs are user-written: raw HTML in
 * them is shown as text (react-markdown never turns it into markup), images are left out (they would
 * load from wherever the author points), and links open in a new tab without a referrer.
 */
const components: Components = {
  a: ({ href, children }) => (
    <a href={href} target="_blank" rel="noopener noreferrer" className="text-sky-700 underline dark:text-sky-400">
      {children}
    </a>
  ),
  h1: ({ children }) => <p className="mt-3 text-lg font-semibold">{children}</p>,
  h2: ({ children }) => <p className="mt-3 text-base font-semibold">{children}</p>,
  h3: ({ children }) => <p className="mt-3 text-sm font-semibold">{children}</p>,
  h4: ({ children }) => <p className="mt-3 text-sm font-semibold">{children}</p>,
  p: ({ children }) => <p className="mt-2">{children}</p>,
  ul: ({ children }) => <ul className="mt-2 ml-4 list-disc">{children}</ul>,
  ol: ({ children }) => <ol className="mt-2 ml-4 list-decimal">{children}</ol>,
  // A code block wider than the dialog scrolls: focusable, so the keyboard can scroll it too.
  pre: ({ children }) => (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be reachable by keyboard (WCAG 2.1.1).
    <pre tabIndex={0} className="mt-2 overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
      {children}
    </pre>
  ),
  code: ({ children }) => <code className="rounded bg-zinc-100 px-0.5 dark:bg-zinc-800">{children}</code>,
};

export function Markdown({ source }: { source: string }): ReactNode {
  return (
    <div className="text-sm">
      <ReactMarkdown components={components} disallowedElements={["img"]} unwrapDisallowed>
        {source}
      </ReactMarkdown>
    </div>
  );
}
