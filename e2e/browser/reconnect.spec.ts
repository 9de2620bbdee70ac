import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, startWorkshopServer } from "@gadgets/workshop-host";
import { expect, replaceEditorText, test } from "./fixtures.ts";

test("a lost connection is shown, a run in flight reports it was interrupted, and the IDE reconnects by itself", async ({
  page,
  allowConsoleErrors,
}) => {
  // The browser reports the socket the test breaks on purpose and the refused reconnects meanwhile.
  allowConsoleErrors(/WebSocket/);
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-reconnect-"));
  const port = await freePort();
  let server = await startWorkshopServer({ dataDir, port });
  try {
    await page.goto(server.url);
    await expect(page.getByTestId("connection")).toHaveText("connected");
    await page.getByLabel("New draft from a template").selectOption({ label: "Echo" });
    await expect(page.getByRole("navigation", { name: "Drafts" }).locator('[aria-current="true"]')).toContainText(
      "echo-",
    );
    await expect(page.locator(".monaco-editor").first()).toBeVisible();
    await replaceEditorText(
      page,
      `export default {\n  async run() {\n    console.log("started");\n    await new Promise((resolve) => setTimeout(resolve, 1800));\n    return "never seen";\n  },\n};\n`,
    );
    await expect(page.getByTestId("save-state")).toContainText("saved #2");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("console-line").filter({ hasText: "started" })).toBeVisible();

    await server.kill();
    await expect(page.getByTestId("connection")).toContainText("connection lost");
    await expect(page.getByTestId("run-status")).toHaveText("interrupted");

    server = await startWorkshopServer({ dataDir, port });
    await expect(page.getByTestId("connection")).toHaveText("connected", { timeout: 20_000 });
    await page.getByRole("button", { name: "Run", exact: true }).click();
    await expect(page.getByTestId("run-result")).toContainText("never seen");
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
