import type { Page } from "@playwright/test";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

const squiggles = (page: Page) => page.locator(".monaco-editor .squiggly-error");

test("gadget.json and gadget.tests.json are checked against their schemas as they are typed", async ({
  page,
  requests,
}) => {
  await newDraft(page, "Echo");
  await page.getByRole("tab", { name: "gadget.json" }).click();

  const valid = JSON.stringify({ name: "echo", entry: "index.ts", grants: { kv: true } }, null, 2);
  await replaceEditorText(page, JSON.stringify({ name: "echo", entry: "index.ts", grants: { kvv: true } }, null, 2));
  await expect(squiggles(page).first()).toBeVisible();
  // Each mistake is shown apart: the valid text clears the last one's marks first.
  await replaceEditorText(page, valid);
  await expect(squiggles(page)).toHaveCount(0);
  await replaceEditorText(page, JSON.stringify({ name: "echo", entry: "index.ts", grants: { kv: "yes" } }, null, 2));
  await expect(squiggles(page).first()).toBeVisible();
  // The message is the manifest check's own sentence (F8: the editor's next problem, with its text).
  await page.keyboard.press("F8");
  await expect(page.locator(".monaco-editor").getByText('"grants.kv" must be true or false.').first()).toBeVisible();
  await page.keyboard.press("Escape");
  await replaceEditorText(page, valid);
  await expect(squiggles(page)).toHaveCount(0);

  // gadget.tests.json: saving a case makes the file; then it is checked too.
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("run-result")).toBeVisible();
  await page.getByRole("button", { name: /Save as test case/ }).click();
  await page.getByRole("tab", { name: "gadget.tests.json" }).click();
  await replaceEditorText(page, JSON.stringify({ tests: [{ name: "t", expect: { outcome: "crashed" } }] }, null, 2));
  await expect(squiggles(page).first()).toBeVisible();
  await replaceEditorText(page, JSON.stringify({ tests: [{ name: "t", expect: { outcome: "ok" } }] }, null, 2));
  await expect(squiggles(page)).toHaveCount(0);

  // The schemas are in memory: nothing was fetched for them.
  expect(requests.filter((url) => /schema/i.test(url))).toEqual([]);
});
