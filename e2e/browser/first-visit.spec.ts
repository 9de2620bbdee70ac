import { expect, test } from "./fixtures.ts";

test("the first visit opens a ready echo example: cursor in the code, payload set, Ctrl+Enter runs it", async ({
  page,
}) => {
  await page.goto("/");
  const welcome = page.getByTestId("welcome");
  await expect(welcome).toContainText("A gadget is a small TypeScript agent");
  await expect(welcome.getByRole("button", { name: "the gadget contract" })).toBeVisible();
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
  await expect(page.locator("#payload")).toHaveValue(/"input": "hello"/);
  // The cursor is in the code: typing goes there.
  await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("run-result")).toContainText("Echo: hello");

  // The welcome says where the docs are.
  await welcome.getByRole("button", { name: "the gadget contract" }).click();
  await expect(page.getByTestId("help-dialog")).toContainText("env");
  await page.getByRole("button", { name: "Close" }).click();

  // Once: the next visit opens the same draft, with no second example and no welcome.
  await page.reload();
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
  await expect(page.getByTestId("welcome")).toHaveCount(0);
  await expect(page.getByRole("navigation", { name: "Drafts" }).getByRole("listitem")).toHaveCount(1);
});

test("with no draft open, the editor area teaches what to do and starts a template in one click", async ({ page }) => {
  await page.goto("/");
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  page.once("dialog", (dialog) => void dialog.accept());
  await page.getByRole("navigation", { name: "Drafts" }).getByRole("listitem").first().hover();
  await page.getByRole("button", { name: /^Delete / }).click();
  const empty = page.getByTestId("no-draft");
  await expect(empty).toContainText("A gadget is a small TypeScript agent");
  await empty.getByRole("button", { name: "Loop with logs" }).click();
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("sleep");
});
