/**
 * Ready configuration for common MCP clients, from the Workshop's MCP URL and an API key: what the
 * "Connect a client" dialog offers to copy. Every value goes in as a JSON literal or a single-quoted
 * shell word (`snippet-text.ts`), so a snippet is always valid JSON, JavaScript or shell, meaning what it shows.
 */

import { jsonLiteral, shellWord } from "../snippet-text.ts";

/** The name the Workshop's server goes by in each client's configuration. */
export const MCP_SERVER_NAME = "gadget-workshop";

export interface ClientSnippet {
  id: "claude-code" | "claude-desktop" | "cursor" | "vscode" | "node";
  /** The client, as people know it. */
  client: string;
  /** Where the text goes, in a few words. */
  where: string;
  language: "shell" | "json" | "javascript";
  text: string;
}

/** The MCP endpoint of a Workshop at `origin` (`location.origin` in the IDE). */
export function mcpUrl(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/mcp`;
}

const json = (value: unknown) => jsonLiteral(value, 2);

/** Every client's snippet for this URL and key (`key` may be a placeholder before a key is made). */
export function clientSnippets(url: string, key: string): ClientSnippet[] {
  const authorization = `Bearer ${key}`;
  return [
    {
      id: "claude-code",
      client: "Claude Code",
      where: "Run in a terminal",
      language: "shell",
      text: `claude mcp add --transport http ${MCP_SERVER_NAME} ${shellWord(url)} --header ${shellWord(`Authorization: ${authorization}`)}`,
    },
    {
      id: "claude-desktop",
      client: "Claude Desktop",
      where: "claude_desktop_config.json (Settings → Developer → Edit Config), through the mcp-remote bridge",
      language: "json",
      text: json({
        mcpServers: {
          [MCP_SERVER_NAME]: {
            command: "npx",
            // The header from env, without a space in the argument: some clients split arguments on spaces.
            args: [
              "-y",
              "mcp-remote",
              url,
              ...(url.startsWith("http:") ? ["--allow-http"] : []),
              "--transport",
              "http-only",
              "--header",
              // biome-ignore lint/suspicious/noTemplateCurlyInString: mcp-remote fills it in from env.
              "Authorization:${WORKSHOP_AUTH}",
            ],
            env: { WORKSHOP_AUTH: authorization },
          },
        },
      }),
    },
    {
      id: "cursor",
      client: "Cursor",
      where: "~/.cursor/mcp.json, or .cursor/mcp.json in a project",
      language: "json",
      text: json({ mcpServers: { [MCP_SERVER_NAME]: { url, headers: { Authorization: authorization } } } }),
    },
    {
      id: "vscode",
      client: "VS Code",
      where: ".vscode/mcp.json (keep it out of version control while it holds the key)",
      language: "json",
      text: json({ servers: { [MCP_SERVER_NAME]: { type: "http", url, headers: { Authorization: authorization } } } }),
    },
    {
      id: "node",
      client: "Node (@modelcontextprotocol/sdk)",
      where: "An ES module; npm install @modelcontextprotocol/sdk",
      language: "javascript",
      text: [
        'import { Client } from "@modelcontextprotocol/sdk/client/index.js";',
        'import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";',
        "",
        `const transport = new StreamableHTTPClientTransport(new URL(${jsonLiteral(url)}), {`,
        `  requestInit: { headers: { Authorization: ${jsonLiteral(authorization)} } },`,
        "});",
        'const client = new Client({ name: "my-app", version: "1.0.0" });',
        "await client.connect(transport);",
        "const { tools } = await client.listTools();",
        'console.log(tools.map((tool) => tool.name)); // your published agents, and "run_code"',
        "await client.close();",
        "",
      ].join("\n"),
    },
  ];
}

/** What the snippets hold until a key is made: says what goes there. */
export const KEY_PLACEHOLDER = "<make a key above>";
