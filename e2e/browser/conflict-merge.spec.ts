import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test("a conflict opens theirs beside mine in a diff, and the merge is saved on top of theirs", async ({
  page,
  context,
}) => {
  await newDraft(page, "Echo");
  const second = await context.newPage();
  await second.goto("/");
  await expect(second.locator(".monaco-editor").first()).toBeVisible();
  await replaceEditorText(page, `// tab one\nexport default { async run() { return 1; } };\n`);
  await expect(page.getByTestId("save-state")).toContainText("saved #2");
  await replaceEditorText(second, `// tab two\nexport default { async run() { return 2; } };\n`);
  await expect(second.getByTestId("conflict")).toBeVisible();

  await second.getByRole("button", { name: "Compare and merge…" }).click();
  const dialog = second.getByTestId("conflict-dialog");
  await expect(dialog.getByRole("tab", { name: "index.ts" })).toHaveAttribute("aria-selected", "true");
  const diff = dialog.locator(".monaco-diff-editor");
  await expect(diff.locator(".editor.original .view-lines")).toContainText("tab one");
  await expect(diff.locator(".editor.modified .view-lines")).toContainText("tab two");
  // Changed lines are marked on both sides.
  await expect(diff.locator(".line-delete, .char-delete").first()).toBeAttached();
  await expect(diff.locator(".line-insert, .char-insert").first()).toBeAttached();

  // Merge: keep my first line and add theirs below it.
  await diff.locator(".editor.modified .view-lines").click();
  await second.keyboard.press("ControlOrMeta+Home");
  await second.keyboard.press("End");
  await second.keyboard.type("\n// and tab one");
  // What is saved is what the right side holds: the typing must have reached it (a loaded machine lags).
  await expect(diff.locator(".editor.modified .view-lines")).toContainText("// and tab one");
  await dialog.getByRole("button", { name: "Save the merge" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(second.getByTestId("save-state")).toContainText("saved #3");
  await expect(second.locator(".monaco-editor .view-lines").first()).toContainText("// and tab one");

  await page.reload();
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("// tab two");
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("// and tab one");
});
