import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { HighlightedCode } from "./HighlightedCode.tsx";

describe("HighlightedCode", () => {
  it("shows markup in code as text, never as elements", () => {
    const source = `const a = "<img src=x onerror=alert(1)>";\n// </pre><script>alert(2)</script>\nconst b = \`<svg onload=\${x}>\`;`;
    const html = renderToStaticMarkup(<HighlightedCode source={source} />);
    expect(html).not.toMatch(/<(img|script|svg)\b/);
    expect(html).toContain("&lt;img src=x onerror=alert(1)&gt;");
    expect(html).toContain("&lt;/pre&gt;&lt;script&gt;alert(2)&lt;/script&gt;");
    expect(html.match(/<\/pre>/g)).toHaveLength(1);
  });

  it("colours tokens by kind", () => {
    const html = renderToStaticMarkup(<HighlightedCode source={"return 42; // done"} />);
    expect(html).toContain('<span class="text-violet-700 dark:text-violet-300">return</span>');
    expect(html).toContain('<span class="text-orange-700 dark:text-orange-300">42</span>');
    expect(html).toContain('<span class="text-zinc-600 dark:text-zinc-400 italic">// done</span>');
  });
});
