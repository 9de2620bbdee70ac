import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "./Markdown.tsx";

describe("Markdown", () => {
  it("renders headings, lists, code and links, and shows raw HTML as text", () => {
    const html = renderToStaticMarkup(
      <Markdown
        source={
          '# Title\n\n- one\n- two\n\n`code` and [docs](https://example.com)\n\n<img src=x onerror="alert(1)">\n\n<script>alert(2)</script>'
        }
      />,
    );
    expect(html).toContain("Title");
    expect(html).toContain("<li>one</li>");
    expect(html).toContain("<code");
    expect(html).toContain('href="https://example.com"');
    expect(html).toContain('rel="noopener noreferrer"');
    expect(html).not.toContain("<img");
    expect(html).not.toContain("<script");
    expect(html).toContain("&lt;script&gt;");
  });

  it("drops javascript: links", () => {
    const html = renderToStaticMarkup(<Markdown source="[x](javascript:alert(1))" />);
    expect(html).not.toContain("javascript:");
  });
});
