import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test.describe("grants and the catalog in the IDE", () => {
  test("editor types follow the grants, and a granted call shows in the console", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    await env.kv.put("seen", "yes");\n    return env.kv.get("seen");\n  },\n};\n`,
    );
    // Not granted yet: using env.kv is a type error.
    await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
    await page.getByRole("checkbox", { name: /kv — keep up to 1 MB/ }).check();
    await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);
    await expect(page.getByTestId("save-state")).toContainText("saved");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("yes");
    await expect(page.getByTestId("console-trace").filter({ hasText: 'kv: kv.put("seen")' })).toBeVisible();
    await expect(page.getByTestId("console-trace").first()).toContainText("ms)");
  });

  test("an ungranted host is refused at run time with the grant to add", async ({ page }) => {
    await newDraft(page, "Echo");
    await page.getByLabel("Hosts this gadget may fetch from").fill("api.example.com");
    await replaceEditorText(
      page,
      `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    try { await env.fetch("http://127.0.0.1:9/"); } catch (e) { return (e as Error).message; }\n  },\n};\n`,
    );
    await expect(page.getByTestId("save-state")).toContainText("saved");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText('add "127.0.0.1:9" to grants.fetch.hosts');
    await expect(page.getByTestId("console-trace").filter({ hasText: "denied" })).toBeVisible();
  });

  test("the catalog shows published agents with their docs as text, and help shows the contract", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
    try {
      const session = client.getSession();
      const draft = await session.createDraft({
        files: [
          {
            path: "gadget.json",
            content: JSON.stringify({
              name: "summarize",
              entry: "index.ts",
              description: "Shortens text.",
              grants: { kv: true },
            }),
          },
          { path: "index.ts", content: "export default { async run() { return 1; } };" },
          {
            path: "README.md",
            content: "# Summarize\n\nCall it with `{ text }`.\n\n<img src=x onerror=alert(1)>\n\n- short\n- sweet",
          },
        ],
      });
      await session.publishDraft(draft.id);
    } finally {
      client[Symbol.dispose]();
    }
    await page.getByRole("button", { name: "Catalog" }).click();
    const agent = page.getByTestId("catalog-agent").filter({ hasText: "summarize" });
    await expect(agent).toContainText("Shortens text.");
    await expect(agent).toContainText("grants: kv");
    await expect(agent).toContainText("<img src=x onerror=alert(1)>");
    await expect(agent.locator("img")).toHaveCount(0);
    await expect(agent.locator("code")).toContainText("{ text }");
    await page.getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Help" }).click();
    await expect(page.getByTestId("help-dialog")).toContainText("env.fetch");
    await expect(page.getByTestId("help-dialog")).toContainText("env.catalog");
  });
});
