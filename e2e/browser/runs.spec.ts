import { createRpcClient } from "@gadgets/workshop-shared";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Page } from "@playwright/test";
import { expect, test } from "./fixtures.ts";

const WEATHER = `export default {
  async run({ city }: { city: string }) {
    console.log("looking up", city);
    return { tempC: city.length };
  },
};`;
const SCHEMAS = {
  inputSchema: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
  outputSchema: { type: "object", properties: { tempC: { type: "number" } }, required: ["tempC"] },
};
const CODE = 'const w = await agents.weather({ city: "Oslo" });\nconsole.log("code mode saw", w.tempC);\nreturn w;';

/** Publishes "weather" in the page's workspace over RPC, as a backend would. */
async function publishWeather(page: Page): Promise<void> {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
  try {
    const session = client.getSession();
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "weather", entry: "index.ts", ...SCHEMAS }) },
        { path: "index.ts", content: WEATHER },
      ],
    });
    await session.publishDraft(draft.id);
  } finally {
    client[Symbol.dispose]();
  }
}

/** Makes a key in the Connect dialog, as a person would; answers the MCP URL and the key the dialog shows. */
async function makeKey(page: Page): Promise<{ url: string; key: string }> {
  await page.getByRole("button", { name: "Connect", exact: true }).click();
  const dialog = page.getByTestId("connect-dialog");
  await dialog.getByLabel("Name").fill("runs-e2e");
  await dialog.getByRole("button", { name: "Make a key for this client" }).click();
  await expect(dialog.getByTestId("new-key")).toHaveValue(/^gk_/);
  const connection = {
    url: await dialog.getByTestId("mcp-url").inputValue(),
    key: await dialog.getByTestId("new-key").inputValue(),
  };
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  return connection;
}

const textOf = (result: object): string =>
  (("content" in result ? result.content : []) as { text?: string }[]).map((block) => block.text ?? "").join("\n");

test.describe("runs from MCP clients in the IDE", () => {
  test("a key from Connect serves the official MCP client; its runs are listed with their source and open with their console", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    // The first visit's example takes the focus once, when its editor is ready: let it, before any dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);
    await publishWeather(page);
    const { url, key } = await makeKey(page);

    // The test's own process is the MCP client, with the key from the page.
    const client = new Client({ name: "workshop-browser-e2e", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(url), {
        requestInit: { headers: { Authorization: `Bearer ${key}` } },
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(["run_code", "weather"]);
      const called = await client.callTool({ name: "weather", arguments: { city: "Paris" } });
      expect(called.isError).toBeFalsy();
      expect(called.structuredContent).toEqual({ tempC: 5 });
      const coded = await client.callTool({ name: "run_code", arguments: { code: CODE } });
      expect(coded.isError, textOf(coded)).toBeFalsy();
      expect(coded.structuredContent).toEqual({ tempC: 4 });
      const threw = await client.callTool({ name: "run_code", arguments: { code: 'throw new Error("nope");' } });
      expect(threw.isError).toBe(true);
    } finally {
      await client.close();
    }

    const runsButton = page.getByRole("button", { name: "Runs", exact: true });
    await runsButton.click();
    const dialog = page.getByTestId("runs-dialog");
    const refresh = dialog.getByRole("button", { name: "Refresh" });
    await expect(refresh).toBeFocused();
    const rows = dialog.getByTestId("run-row");
    const codeRows = rows.filter({ hasText: "Code Mode" });
    // The MCP client's session writes its records in batches just after each answer: refresh until they are in.
    await expect(async () => {
      await refresh.click();
      await expect(codeRows).toHaveCount(2, { timeout: 1000 });
    }).toPass();

    // The direct call of the agent (and the one the code made through the catalog): its name, from MCP.
    const weatherRows = rows.filter({ hasText: "weather" }).filter({ hasText: "from MCP" });
    await expect(weatherRows).not.toHaveCount(0);
    await expect(weatherRows.last()).toContainText("agent v1");
    await expect(weatherRows.last().getByRole("cell", { name: "ok", exact: true })).toBeVisible();
    for (const row of await codeRows.all()) await expect(row).toContainText("from MCP");
    // Newest first: the failed code ran last. Its outcome in words, the raw kind as a tooltip.
    const failed = codeRows.first().getByRole("cell", { name: "threw" });
    await expect(failed).toHaveAttribute("title", "kind: user");
    await expect(codeRows.nth(1).getByRole("cell", { name: "ok", exact: true })).toHaveAttribute("title", "kind: ok");

    // Chosen by keyboard: the record beside the list (the code it ran, exactly), its lines in the console.
    const chosen = codeRows.nth(1).getByRole("button");
    await chosen.focus();
    await page.keyboard.press("Enter");
    await expect(chosen).toHaveAttribute("aria-current", "true");
    const details = dialog.getByTestId("run-details");
    await expect(details.getByTestId("run-code")).toContainText('console.log("code mode saw", w.tempC);');
    await expect(details.getByTestId("run-outcome")).toContainText('"tempC": 4');
    await expect(details).toContainText("from MCP");
    await expect(details).toContainText("Code Mode");
    // Its console lines are in the dialog's own console (never the open draft's).
    const consolePanel = details.getByTestId("run-console");
    await expect(consolePanel).toContainText("code mode saw");
    await expect(consolePanel).toContainText("looking up");
    await expect(consolePanel).toContainText(/code \(Code Mode, from MCP, recorded\)/i);
    await page.screenshot({ path: testInfo.outputPath("runs-dialog.png") });
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(runsButton).toBeFocused();
    await expect(page.getByTestId("console")).not.toContainText("code mode saw");

    // A failed run's record says why, with its stack into the code.
    await runsButton.click();
    await expect(async () => {
      await refresh.click();
      await expect(codeRows).toHaveCount(2, { timeout: 1000 });
    }).toPass();
    await codeRows.first().getByRole("button").click();
    await expect(details.getByTestId("run-outcome")).toContainText("threw: ");
    await expect(details.getByTestId("run-outcome")).toContainText("nope");
  });
});
