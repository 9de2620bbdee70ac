import type { ReactNode } from "react";

/** Inline `code` and **bold**, as React text: nothing in the text becomes markup. */
function inline(text: string): ReactNode[] {
  return text.split(/(`[^`]+`|\*\*[^*]+\*\*)/g).map((part, i) => {
    if (part.startsWith("`") && part.endsWith("`") && part.length > 1)
      return (
        // biome-ignore lint/suspicious/noArrayIndexKey: parts of one line never reorder
        <code key={i} className="rounded bg-zinc-100 px-0.5 dark:bg-zinc-800">
          {part.slice(1, -1)}
        </code>
      );
    if (part.startsWith("**") && part.endsWith("**") && part.length > 3)
      // biome-ignore lint/suspicious/noArrayIndexKey: parts of one line never reorder
      return <strong key={i}>{part.slice(2, -2)}</strong>;
    return part;
  });
}

/**
 * A small Markdown view for docs (headings, lists, tables as text, code blocks, paragraphs). Agents'
 * docs are user-written: everything is rendered as text, no HTML passes through.
 */
export function Markdown({ source }: { source: string }) {
  const blocks: ReactNode[] = [];
  const lines = source.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? "";
    if (line.startsWith("```")) {
      const code: string[] = [];
      for (i++; i < lines.length && !(lines[i] ?? "").startsWith("```"); i++) code.push(lines[i] ?? "");
      blocks.push(
        <pre key={blocks.length} className="overflow-auto rounded bg-zinc-100 p-2 text-xs dark:bg-zinc-800">
          {code.join("\n")}
        </pre>,
      );
      continue;
    }
    const heading = /^(#{1,4})\s+(.*)$/.exec(line);
    if (heading) {
      const size = ["text-lg", "text-base", "text-sm", "text-sm"][(heading[1]?.length ?? 1) - 1];
      blocks.push(
        <p key={blocks.length} className={`mt-3 font-semibold ${size}`}>
          {inline(heading[2] ?? "")}
        </p>,
      );
      continue;
    }
    if (/^\s*[-*] /.test(line)) {
      const items: string[] = [];
      // Anchored alternatives without overlapping whitespace runs: no quadratic backtracking.
      for (; i < lines.length && /^(?:\s*[-*] | {2}\s*\S)/.test(lines[i] ?? ""); i++) {
        const item = lines[i] ?? "";
        if (/^\s*[-*] /.test(item)) items.push(item.replace(/^\s*[-*] /, ""));
        else items[items.length - 1] += ` ${item.trim()}`;
      }
      i--;
      blocks.push(
        <ul key={blocks.length} className="ml-4 list-disc">
          {items.map((item, n) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list
            <li key={n}>{inline(item)}</li>
          ))}
        </ul>,
      );
      continue;
    }
    if (line.trim() === "") continue;
    const paragraph = [line];
    for (
      ;
      i + 1 < lines.length && (lines[i + 1] ?? "").trim() !== "" && !/^(#|```|\s*[-*] )/.test(lines[i + 1] ?? "");
      i++
    )
      paragraph.push(lines[i + 1] ?? "");
    blocks.push(
      <p key={blocks.length} className={paragraph[0]?.startsWith("|") ? "whitespace-pre font-mono text-xs" : "mt-1"}>
        {paragraph[0]?.startsWith("|") ? paragraph.join("\n") : inline(paragraph.join(" "))}
      </p>,
    );
  }
  return <div className="space-y-1 text-sm">{blocks}</div>;
}
