import { allowLongRuns, expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test.describe("app commands", () => {
  test('the palette finds "Run" by typing run, and runs the gadget', async ({ page }) => {
    await newDraft(page, "Echo");
    await page.getByRole("button", { name: "Commands" }).click();
    const palette = page.getByTestId("command-palette");
    await expect(palette.getByRole("combobox")).toBeFocused();
    await page.keyboard.type("run");
    await expect(palette.getByRole("option").first()).toContainText("Run");
    await expect(palette.getByRole("option").first()).toHaveAttribute("aria-selected", "true");
    await page.keyboard.press("Enter");
    await expect(palette).toBeHidden();
    await expect(page.getByTestId("run-status")).toHaveText("✓ ok");
  });

  test("Ctrl/Cmd+K and Ctrl/Cmd+Shift+P open the palette from outside the editor and from inside it", async ({
    page,
  }) => {
    await newDraft(page, "Echo");
    await page.getByRole("navigation", { name: "Toolbar" }).getByRole("button", { name: "Shortcuts" }).focus();
    await page.keyboard.press("ControlOrMeta+K");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("command-palette")).toBeHidden();

    await page.locator("body").click({ position: { x: 5, y: 200 } });
    await page.keyboard.press("ControlOrMeta+Shift+P");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    await page.keyboard.press("Escape");

    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("ControlOrMeta+K");
    await expect(page.getByTestId("command-palette")).toBeVisible();
    // Switch draft… lists the drafts in the same box.
    await page.keyboard.type("switch");
    await page.keyboard.press("Enter");
    // The new draft among them (the example a first visit opens may be saved later and listed first).
    const listed = page.getByTestId("command-palette").getByRole("option").filter({ hasText: "echo-" });
    await expect(listed).toHaveCount(1);
    await expect(listed).toContainText("saved #");
  });

  test("Escape cancels a spinning run, and does nothing when no run goes", async ({ page }) => {
    await newDraft(page, "Echo");
    await allowLongRuns(page);
    await replaceEditorText(page, "export default {\n  async run() {\n    while (true) {}\n  },\n};\n");
    await page.keyboard.press("Escape");
    await page.getByTestId("run-button").click();
    await expect(page.getByRole("button", { name: "Cancel" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("run-status")).toHaveText("✗ cancelled");
    await expect(page.getByTestId("run-status")).toHaveAttribute("title", "kind: cancelled");
  });

  test("the shortcut sheet lists every app key, Ctrl+Shift+Enter among them", async ({ page }) => {
    await newDraft(page, "Echo");
    await page.getByRole("navigation", { name: "Toolbar" }).getByRole("button", { name: "Shortcuts" }).click();
    const sheet = page.getByTestId("shortcut-sheet");
    for (const keys of ["Ctrl/Cmd+Enter", "Ctrl/Cmd+Shift+Enter", "Escape", "Ctrl/Cmd+K · Ctrl/Cmd+Shift+P", "F1"])
      await expect(sheet.getByText(keys, { exact: true })).toBeVisible();
    await expect(sheet).toContainText("Run tests");
    // Ctrl/Cmd+K is the palette's, so the sheet says where the editor's Ctrl/Cmd+K chords went.
    await expect(sheet).toContainText("Show or Focus Hover");
  });
});
