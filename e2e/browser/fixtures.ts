import { expect, type Page, test as base } from "@playwright/test";

/** Every page records the requests it makes, so a test can assert none left 127.0.0.1. */
export const test = base.extend<{ requests: string[] }>({
  requests: async ({ page }, use) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await use(requests);
  },
});
export { expect };

/** Opens the IDE and creates a draft from a template; resolves when its editor shows. */
export async function newDraft(page: Page, template: "Echo" | "Loop with logs" | "Async work" = "Echo"): Promise<void> {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await page.getByLabel("New draft from a template").selectOption({ label: template });
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  await expect(page.getByTestId("save-state")).toContainText("saved");
}

/** Replaces the text of the editor's current file by select-all and paste, as a person would. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press("ControlOrMeta+V");
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText(
    text.split("\n")[0]?.slice(0, 20) ?? "",
  );
}
