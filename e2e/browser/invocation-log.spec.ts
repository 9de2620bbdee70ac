import { createRpcClient, type Session } from "@gadgets/workshop-shared";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

const SOURCE = (name: string) => `export default {
  async run(payload: { n?: number }) {
    console.log("${name} ran", payload.n ?? 0);
    return { agent: "${name}", n: payload.n ?? 0 };
  },
};`;

/** A client of the page's workspace on a connection of its own, as a backend would hold one. */
async function outsideClient(page: Page) {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  return createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
}

async function publish(session: Session, name: string): Promise<string> {
  const draft = await session.createDraft({
    files: [
      { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts" }) },
      { path: "index.ts", content: SOURCE(name) },
    ],
  });
  return (await session.publishDraft(draft.id)).agentId;
}

/** Calls `tool` as an MCP client in this test's own process would, with a key of the workspace. */
async function callOverMcp(session: Session, tool: string, n: number): Promise<void> {
  const { key } = await session.createKey({ name: "invocation-log", scope: "call" });
  const client = new Client({ name: "invocation-log-e2e", version: "1.0.0" });
  await client.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", process.env.WORKSHOP_E2E_URL), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
    }),
  );
  try {
    const result = await client.callTool({ name: tool, arguments: { n } });
    expect(result.isError).toBeFalsy();
  } finally {
    await client.close();
  }
}

test.describe("the invocation log", () => {
  test("runs made from outside appear while the Runs view is open, the choice stays, and the filters narrow the list", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    // The first visit's example takes the focus once, when its editor is ready: let it, before any dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);
    using outside = await outsideClient(page);
    const session = outside.getSession();
    await publish(session, "weather");
    await publish(session, "echo");

    await page.getByRole("button", { name: "Runs", exact: true }).click();
    const dialog = page.getByTestId("runs-dialog");
    const rows = dialog.getByTestId("run-row");
    await expect(dialog).toContainText("No runs yet.");

    // A run on another connection: the open view shows it without Refresh being clicked.
    await outside.getAgent("weather").run({ n: 1 });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("weather");
    await expect(rows.first()).toContainText("IDE / API");

    // Chosen, it opens; runs that come later do not take the choice away.
    await rows.first().getByRole("button").click();
    const chosen = rows.filter({ hasText: "weather" }).getByRole("button");
    await expect(chosen).toHaveAttribute("aria-current", "true");
    await expect(dialog.getByTestId("run-outcome")).toContainText('"n": 1');

    await outside.getAgent("echo").run({ n: 2 });
    await callOverMcp(session, "echo", 3);
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText("from MCP");
    await expect(chosen).toHaveAttribute("aria-current", "true");
    await expect(dialog.getByTestId("run-outcome")).toContainText('"n": 1');
    await expect(dialog.getByTestId("trace")).toContainText("weather");
    await page.screenshot({ path: testInfo.outputPath("invocation-log.png") });

    // By agent: only its runs. By trigger: only those started that way; both together.
    const agent = dialog.getByTestId("runs-agent-filter");
    const trigger = dialog.getByTestId("runs-trigger-filter");
    await agent.selectOption({ label: "echo" });
    await expect(rows).toHaveCount(2);
    for (const row of await rows.all()) await expect(row).toContainText("echo");
    await trigger.selectOption({ label: "MCP" });
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("from MCP");
    await trigger.selectOption({ label: "HTTP" });
    await expect(dialog).toContainText("No runs of this agent started by HTTP yet.");
    await agent.selectOption({ label: "all runs" });
    await trigger.selectOption({ label: "IDE / API" });
    await expect(rows).toHaveCount(2);
    await expect(rows.filter({ hasText: "from MCP" })).toHaveCount(0);

    // Still live under a filter: a new RPC run of weather shows; an MCP one would not.
    await outside.getAgent("weather").run({ n: 4 });
    await expect(rows).toHaveCount(3);
    await expect(rows.first()).toContainText("weather");
  });
});
