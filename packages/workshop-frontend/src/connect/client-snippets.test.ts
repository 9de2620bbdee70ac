import { describe, expect, it } from "vitest";
import { clientSnippets, KEY_PLACEHOLDER, MCP_SERVER_NAME, mcpUrl } from "./client-snippets.ts";

const KEY = `gk_${"A".repeat(22)}${"b-_9".repeat(10)}xyz`;
const URL_ = "https://workshop.example.com/mcp";

describe("mcpUrl", () => {
  it("is the origin's /mcp", () => {
    expect(mcpUrl("http://127.0.0.1:8787")).toBe("http://127.0.0.1:8787/mcp");
    expect(mcpUrl("https://workshop.example.com/")).toBe(URL_);
  });
});

describe("clientSnippets", () => {
  const byId = Object.fromEntries(clientSnippets(URL_, KEY).map((snippet) => [snippet.id, snippet]));

  it("has one for each common client, every one holding the URL and the key", () => {
    expect(Object.keys(byId)).toEqual(["claude-code", "claude-desktop", "cursor", "vscode", "node"]);
    for (const snippet of Object.values(byId)) {
      expect(snippet.text).toContain(URL_);
      expect(snippet.text).toContain(KEY);
    }
  });

  it("gives Claude Code its command line", () => {
    expect(byId["claude-code"]?.text).toBe(
      `claude mcp add --transport http ${MCP_SERVER_NAME} '${URL_}' --header 'Authorization: Bearer ${KEY}'`,
    );
  });

  it("writes JSON configurations each client reads", () => {
    expect(JSON.parse(byId.cursor?.text ?? "")).toEqual({
      mcpServers: { [MCP_SERVER_NAME]: { url: URL_, headers: { Authorization: `Bearer ${KEY}` } } },
    });
    expect(JSON.parse(byId.vscode?.text ?? "")).toEqual({
      servers: { [MCP_SERVER_NAME]: { type: "http", url: URL_, headers: { Authorization: `Bearer ${KEY}` } } },
    });
    const desktop = JSON.parse(byId["claude-desktop"]?.text ?? "");
    expect(desktop.mcpServers[MCP_SERVER_NAME]).toEqual({
      command: "npx",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote fills it in from env.
      args: ["-y", "mcp-remote", URL_, "--transport", "http-only", "--header", "Authorization:${WORKSHOP_AUTH}"],
      env: { WORKSHOP_AUTH: `Bearer ${KEY}` },
    });
  });

  it("gives Node a module on the official SDK's Streamable HTTP client", () => {
    const text = byId.node?.text ?? "";
    expect(text).toContain('from "@modelcontextprotocol/sdk/client/streamableHttp.js"');
    expect(text).toContain(`new URL(${JSON.stringify(URL_)})`);
    expect(text).toContain(`headers: { Authorization: "Bearer ${KEY}" }`);
    expect(text).toContain("await client.connect(transport);");
  });

  it("quotes what a shell or JSON would otherwise read differently", () => {
    const odd = clientSnippets("https://x.example/a b'c/mcp", KEY_PLACEHOLDER);
    const shell = odd.find((snippet) => snippet.id === "claude-code")?.text;
    expect(shell).toContain(`'https://x.example/a b'\\''c/mcp'`);
    expect(shell).toContain(`'Authorization: Bearer ${KEY_PLACEHOLDER}'`);
    const dollar = clientSnippets("https://x.example/$HOME'/mcp", KEY_PLACEHOLDER)[0]?.text;
    expect(dollar).toContain(`'https://x.example/$HOME'\\''/mcp'`);
    const cursor = JSON.parse(odd.find((snippet) => snippet.id === "cursor")?.text ?? "");
    expect(cursor.mcpServers[MCP_SERVER_NAME].url).toBe("https://x.example/a b'c/mcp");
    const local = JSON.parse(clientSnippets("http://127.0.0.1:8787/mcp", KEY)[1]?.text ?? "");
    expect(local.mcpServers[MCP_SERVER_NAME].args.slice(2, 5)).toEqual([
      "http://127.0.0.1:8787/mcp",
      "--allow-http",
      "--transport",
    ]);
    const node = odd.find((snippet) => snippet.id === "node")?.text ?? "";
    expect(node).toContain(`new URL(${JSON.stringify("https://x.example/a b'c/mcp")})`);
  });

  it("single-quotes every shell value and escapes invisible and bidi characters in JSON and JavaScript", () => {
    const url = 'https://x.example/"$(id)"\u202e/mcp';
    const snippets = Object.fromEntries(clientSnippets(url, "k\u2066").map((snippet) => [snippet.id, snippet.text]));
    expect(snippets["claude-code"]).toBe(
      `claude mcp add --transport http ${MCP_SERVER_NAME} '${url}' --header 'Authorization: Bearer k\u2066'`,
    );
    for (const id of ["claude-desktop", "cursor", "vscode", "node"]) {
      const text = snippets[id] ?? "";
      expect(text).not.toMatch(/[\u202e\u2066]/);
      expect(text).toContain("\\u202e");
      expect(text).toContain("Bearer k\\u2066");
    }
    expect(JSON.parse(snippets.cursor ?? "").mcpServers[MCP_SERVER_NAME]).toEqual({
      url,
      headers: { Authorization: "Bearer k\u2066" },
    });
  });
});
