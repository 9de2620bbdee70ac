import { createRpcClient } from "@gadgets/workshop-shared";
import type { Page } from "@playwright/test";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

/** Publishes "quotes", with schemas, in the page's workspace over RPC, as a backend would. */
async function publishQuotes(page: Page): Promise<void> {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
  try {
    const session = client.getSession();
    const manifest = {
      name: "quotes",
      entry: "index.ts",
      inputSchema: { type: "object", properties: { symbol: { type: "string" } }, required: ["symbol"] },
      outputSchema: { type: "object", properties: { price: { type: "number" } }, required: ["price"] },
    };
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify(manifest) },
        {
          path: "index.ts",
          content: "export default { async run(p: { symbol: string }) { return { price: p.symbol.length }; } };",
        },
      ],
    });
    await session.publishDraft(draft.id);
  } finally {
    client[Symbol.dispose]();
  }
}

const caller = (call: string) =>
  `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    const { price } = await env.catalog.get("quotes").run(${call});\n    return price.toFixed(2);\n  },\n};\n`;

test("env.catalog.get completes the published agents' names and types their payload and result", async ({ page }) => {
  await newDraft(page, "Echo");
  await publishQuotes(page);
  await page.getByRole("checkbox", { name: /catalog — call other published agents/ }).check();

  await replaceEditorText(
    page,
    `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    return env.catalog.get("`,
  );
  await page.keyboard.press("Control+Space");
  const suggest = page.locator(".monaco-editor .suggest-widget");
  await expect(suggest.getByRole("option", { name: /quotes/ })).toBeVisible();
  await page.keyboard.press("Escape");

  await replaceEditorText(page, caller('{ symbol: "ABCD" }'));
  await expect(page.getByTestId("save-state")).toContainText("saved");
  await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("run-result")).toContainText("4.00");

  // A payload of the wrong type is an error where it is written.
  await replaceEditorText(page, caller("{ symbol: 42 }"));
  await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
});
