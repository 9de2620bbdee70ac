import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test.describe("publishing and the IDE's words", () => {
  test("the publish panel shows name@version and the agent id to copy, a Node snippet, a CLI line, the catalog", async ({
    page,
  }) => {
    await newDraft(page, "Echo");
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const panel = page.getByTestId("publish-panel");
    await expect(panel.getByTestId("published-ref")).toHaveText(/^echo-\w+@1$/);
    const ref = (await panel.getByTestId("published-ref").textContent()) ?? "";
    await expect(panel.getByTestId("snippet-node")).toContainText(`client.getAgent("${ref}").run(`);
    await expect(panel.getByTestId("snippet-cli")).toContainText(`gadgets call '${ref}' --input`);
    await panel.getByRole("button", { name: "Copy Agent id" }).click();
    const agentId = (await panel.getByTestId("published-agent-id").textContent()) ?? "";
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(agentId);
    await panel.getByRole("button", { name: "Open in the catalog" }).click();
    await expect(page.getByTestId("catalog-dialog").locator('[aria-current="true"]')).toContainText(agentId);
  });

  test("failing tests at publish: an in-app dialog with the cases and diffs, Open tests, Publish anyway", async ({
    page,
  }) => {
    await newDraft(page, "Echo");
    const tests = `{ "tests": [ { "name": "greets", "input": { "input": "hi" }, "expect": { "equals": "Echo: hello there" } } ] }`;
    await replaceEditorText(
      page,
      `export default {\n  async run({ input }: { input: string }) {\n    return "Echo: " + input + " there";\n  },\n};\n`,
    );
    // The test file is saved beside the code over RPC, as the CLI would; the page then opens it.
    const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
    const draftId = await page.evaluate(() => window.localStorage.getItem("workshop.activeDraft"));
    expect(token && draftId).toBeTruthy();
    await page.getByTestId("save-state").filter({ hasText: "saved #" }).waitFor();
    const { createRpcClient } = await import("@gadgets/workshop-shared");
    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
    try {
      const session = client.getSession();
      const draft = await session.openDraft(draftId ?? "");
      await session.saveDraft(draftId ?? "", {
        files: [...draft.files, { path: "gadget.tests.json", content: tests }],
        baseVersion: draft.version,
      });
    } finally {
      client[Symbol.dispose]();
    }
    await page.reload();
    await expect(page.locator(".monaco-editor").first()).toBeVisible();

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const dialog = page.getByTestId("publish-tests-failed");
    await expect(dialog).toContainText('1 of 1 test cases failed ("greets")');
    await expect(dialog).not.toContainText("overrideTests");
    const failing = dialog.getByTestId("failing-case");
    await expect(failing).toContainText("greets");
    await expect(failing.getByTestId("diff-changed").first()).toHaveText("hello");
    await dialog.getByRole("button", { name: "Open tests" }).click();
    await expect(dialog).toBeHidden();
    await expect(page.getByRole("tab", { name: "gadget.tests.json" })).toHaveAttribute("aria-selected", "true");

    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await page.getByTestId("publish-tests-failed").getByRole("button", { name: "Publish anyway — recorded" }).click();
    await expect(page.getByTestId("publish-panel")).toContainText("Published with failing tests");
    await expect(page.getByTestId("notice")).toContainText("(tests overridden)");
  });

  test("a failing test's diff is shown without a click, the changed words highlighted", async ({ page }) => {
    await newDraft(page, "Echo");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-status")).toHaveText("✓ ok");
    await page.getByRole("button", { name: "Save as test case" }).click();
    await expect(page.getByRole("tab", { name: "gadget.tests.json" })).toBeVisible();
    await replaceEditorText(
      page,
      `{ "tests": [ { "name": "case", "input": { "input": "hello" }, "expect": { "equals": "Echo: goodbye" } } ] }\n`,
    );
    await page.keyboard.press("ControlOrMeta+Shift+Enter");
    const diff = page.getByTestId("test-diff");
    await expect(diff).toBeVisible();
    await expect(diff.getByTestId("diff-changed")).toHaveText(["goodbye", "hello"]);
    const box = await diff.boundingBox();
    expect(box?.height ?? 0).toBeGreaterThan(40);
  });

  test("outcomes read in words, with the internal kind in a tooltip", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, `export default {\n  async run() {\n    throw new Error("nope");\n  },\n};\n`);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-status")).toHaveText("✗ threw");
    await expect(page.getByTestId("run-status")).toHaveAttribute("title", "kind: user");
    await expect(page.getByTestId("outcome-words")).toHaveText("✗ threw");
    await replaceEditorText(page, `export default {\n  async run() {\n    return (;\n  },\n};\n`);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-status")).toHaveText("✗ doesn't build");
    await expect(page.getByTestId("run-status")).toHaveAttribute("title", "kind: invalid");
  });

  test("toasts: one region, information replaced rather than piled up, errors dismissable", async ({ page }) => {
    await newDraft(page, "Echo");
    await page.locator("#payload").fill("{ not json");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const toasts = page.getByTestId("toasts");
    await expect(toasts).toHaveAttribute("aria-live", "polite");
    await expect(toasts.getByTestId("notice")).toHaveCount(1);
    await expect(toasts.getByTestId("notice")).toHaveAttribute("data-tone", "error");
    await toasts.getByRole("button", { name: "Dismiss" }).click();
    await expect(toasts.getByTestId("notice")).toHaveCount(0);

    await page.locator("#payload").fill('{ "input": "hi" }');
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-status")).toHaveText("✓ ok");
    await page.getByRole("button", { name: "Share run" }).click();
    await page.getByRole("button", { name: "Share run" }).click();
    await expect(toasts.getByTestId("notice")).toHaveCount(1);
    const link = toasts.getByTestId("notice-link");
    await expect(link).toHaveAttribute("href", /\/r\/[A-Za-z0-9_-]{22}$/);
    await expect(toasts.getByRole("button", { name: "Copy the link" })).toBeVisible();
    // Measured once it settles: the second share replaces the first one's toast (a new element).
    await expect
      .poll(async () => {
        const size = await toasts.getByRole("button", { name: "Dismiss" }).boundingBox();
        return Math.min(size?.width ?? 0, size?.height ?? 0);
      })
      .toBeGreaterThanOrEqual(24);
  });

  test("env. with nothing granted offers a hint on granting instead of nothing", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    return env`);
    await page.keyboard.type(".");
    await page.keyboard.press("Control+Space");
    await expect(page.locator(".suggest-widget")).toContainText("nothing granted");
  });
});

test.describe("the global fetch()", () => {
  let server: Server;
  let port = 0;
  test.beforeAll(async () => {
    server = createServer((_, response) => response.end(JSON.stringify({ hello: "from the local server" })));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
  });
  test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test("points at Grants, and one click grants the host so the run succeeds", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    const response = await fetch("http://127.0.0.1:${port}/hello");\n    return response.json();\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    const hint = page.getByTestId("fetch-hint");
    await expect(hint).toContainText("env.fetch");
    await expect(hint).toContainText("Grants");
    await hint.getByRole("button", { name: `Grant fetch to 127.0.0.1:${port}` }).click();
    await expect(hint).toContainText(`Granted fetch to 127.0.0.1:${port}`);
    await expect(page.getByLabel("Hosts this gadget may fetch from")).toHaveValue(`127.0.0.1:${port}`);
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-status")).toHaveText("✓ ok");
    await expect(page.getByTestId("run-result")).toContainText("from the local server");
  });
});
