import { describe, expect, it } from "vitest";
import { embedUrl, parseEmbedOptions } from "./embed.ts";

describe("parseEmbedOptions", () => {
  it("reads every option and falls back to defaults for anything else", () => {
    expect(
      parseEmbedOptions(
        "?theme=dark&file=lib/a.ts&readonly&autorun=1&ctl=true&console=hide&view=console&host=https://blog.example.com/post",
      ),
    ).toEqual({
      theme: "dark",
      file: "lib/a.ts",
      readonly: true,
      autorun: true,
      ctl: true,
      console: "hide",
      view: "console",
      host: "https://blog.example.com",
    });
    expect(parseEmbedOptions("?theme=neon&view=<script>&ctl=0&host=javascript:alert(1)")).toEqual({
      theme: "light",
      readonly: false,
      autorun: false,
      ctl: false,
      console: "show",
      view: "both",
    });
  });

  it("round-trips through embedUrl", () => {
    const url = embedUrl("http://127.0.0.1:8787", "abc", { theme: "dark", ctl: true, view: "editor", file: "a.ts" });
    expect(url).toBe("http://127.0.0.1:8787/embed/abc?theme=dark&file=a.ts&ctl=1&view=editor");
    expect(parseEmbedOptions(new URL(url).search)).toMatchObject({
      theme: "dark",
      ctl: true,
      view: "editor",
      file: "a.ts",
    });
  });
});
