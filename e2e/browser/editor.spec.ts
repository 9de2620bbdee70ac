import type { Page } from "@playwright/test";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

const editorLines = (page: Page) => page.locator(".monaco-editor .view-lines").first();

/** Puts the cursor at a line and column with the editor's own Go to Line (Ctrl+G), as a person could. */
async function goTo(page: Page, line: number, column: number): Promise<void> {
  await editorLines(page).click();
  await page.keyboard.press("Control+G");
  await expect(page.locator(".quick-input-widget")).toBeVisible();
  await page.keyboard.type(`${line}:${column}`);
  await page.keyboard.press("Enter");
  await expect(page.locator(".quick-input-widget")).toBeHidden();
}

test.describe("the editor people expect", () => {
  test("suggestions know the payload, the granted env, the gadget contract and the other files", async ({ page }) => {
    await newDraft(page, "Async work");
    // The payload's members.
    await replaceEditorText(
      page,
      `export default {\n  async run(payload: { input: string }, env: GadgetEnv) {\n    return payload.`,
    );
    await page.keyboard.press("Control+Space");
    const suggest = page.locator(".monaco-editor .suggest-widget");
    await expect(suggest).toBeVisible();
    await expect(suggest.getByRole("option", { name: /input/ })).toBeVisible();
    await page.keyboard.press("Escape");

    // env follows the grants: kv appears once granted.
    await page.getByRole("checkbox", { name: /kv — keep up to 1 MB/ }).check();
    await replaceEditorText(page, `export default {\n  async run(payload: unknown, env: GadgetEnv) {\n    return env.`);
    await page.keyboard.press("Control+Space");
    await expect(suggest.getByRole("option", { name: /^kv/ })).toBeVisible();
    await page.keyboard.press("Escape");

    // The gadget contract as a snippet.
    await replaceEditorText(page, "gadge");
    await page.keyboard.press("Control+Space");
    await expect(suggest.getByRole("option", { name: /gadget/ }).first()).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(editorLines(page)).toContainText("satisfies Gadget");
    await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);

    // Cross-file: what score.ts exports, inside an import's braces.
    await replaceEditorText(page, `import {  } from "./score";\n`);
    await page.keyboard.press("ControlOrMeta+Home");
    for (let i = 0; i < 9; i++) await page.keyboard.press("ArrowRight");
    await page.keyboard.press("Control+Space");
    await expect(suggest.getByRole("option", { name: /^score/ })).toBeVisible();
  });

  test("hover shows a type, signature help shows parameters", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, `export default {\n  async run() {\n    console.log("hi");\n    return Math.max(`);
    await goTo(page, 3, 7);
    // Ctrl/Cmd+K is the app's palette, so the editor's Ctrl/Cmd+K Ctrl/Cmd+I is found by name under F1.
    await page.keyboard.press("F1");
    await page.keyboard.type("Show or Focus Hover");
    await expect(
      page.locator(".quick-input-widget").getByRole("option", { name: /Show or Focus Hover/ }),
    ).toBeVisible();
    await page.keyboard.press("Enter");
    const hover = page.locator(".monaco-editor .monaco-hover").filter({ hasText: "console" });
    await expect(hover.first()).toBeVisible();
    await expect(hover.first()).toContainText("Console");
    await page.keyboard.press("Escape");
    await editorLines(page).click();
    await page.keyboard.press("ControlOrMeta+End");
    await page.keyboard.press("ControlOrMeta+Shift+Space");
    await expect(page.locator(".monaco-editor .parameter-hints-widget")).toContainText("values");
  });

  test("find, replace, the command palette and format", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, `export default {async run(){return "one"}}\n`);
    await page.keyboard.press("ControlOrMeta+F");
    await expect(page.locator(".monaco-editor .find-widget.visible")).toBeVisible();
    await page.keyboard.type("one");
    await expect(page.locator(".monaco-editor .find-widget .matchesCount")).toContainText("1 of 1");
    await page.keyboard.press("Escape");
    await page.keyboard.press("ControlOrMeta+H");
    await expect(page.locator(".monaco-editor .find-widget.replaceToggled")).toBeVisible();
    await page.keyboard.press("Escape");

    await page.keyboard.press("F1");
    const palette = page.locator(".quick-input-widget");
    await expect(palette).toBeVisible();
    await page.keyboard.type("Format Document");
    await expect(palette.getByRole("option", { name: /Format Document/ }).first()).toBeVisible();
    await page.keyboard.press("Enter");
    await expect(editorLines(page)).toContainText('{ return "one" }');

    // The toolbar's command palette reaches the same one.
    await page.getByRole("button", { name: "Commands" }).click();
    await page
      .getByTestId("command-palette")
      .getByRole("option", { name: /Editor commands/ })
      .click();
    await expect(palette).toBeVisible();
    await page.keyboard.press("Escape");
  });

  test("go to definition and rename work across the gadget's files", async ({ page }) => {
    await newDraft(page, "Async work");
    await goTo(page, 1, 11);
    await page.keyboard.press("F12");
    await expect(page.getByRole("tab", { name: "score.ts" })).toHaveAttribute("aria-selected", "true");
    await expect(editorLines(page)).toContainText("export async function score");

    await goTo(page, 1, 24);
    await page.keyboard.press("F2");
    const rename = page.locator(".monaco-editor .rename-box input");
    await expect(rename).toBeVisible();
    await rename.fill("rate");
    await page.keyboard.press("Enter");
    await expect(editorLines(page)).toContainText("export async function rate");
    await page.getByRole("tab", { name: "index.ts" }).click();
    await expect(editorLines(page)).toContainText('import { rate } from "./score"');
    await expect(editorLines(page)).toContainText("rate(word)");
    // Both files' edits reach the draft, not just the one on screen.
    await expect(page.getByTestId("save-state")).toContainText("saved #2");
    await page.keyboard.press("ControlOrMeta+Enter");
    // The renamed function still runs: three words scored.
    await expect(page.getByTestId("run-result")).toContainText("(3)");
  });

  test("multi-cursor, bracket matching and folding", async ({ page }) => {
    await newDraft(page, "Echo");
    await goTo(page, 2, 14);
    await page.keyboard.press("ControlOrMeta+D");
    await page.keyboard.press("ControlOrMeta+D");
    await expect(page.locator(".monaco-editor .cursors-layer .cursor")).toHaveCount(2);
    await page.keyboard.press("Escape");

    await goTo(page, 1, 17);
    await expect(page.locator(".monaco-editor .bracket-match").first()).toBeAttached();

    const linesBefore = await page.locator(".monaco-editor .view-line").count();
    await page.keyboard.press("ControlOrMeta+Home");
    await page.keyboard.press("ControlOrMeta+Shift+BracketLeft");
    await expect(page.locator(".monaco-editor .codicon-folding-collapsed").first()).toBeAttached();
    expect(await page.locator(".monaco-editor .view-line").count()).toBeLessThan(linesBefore);
  });

  test("switching drafts again and again raises no error", async ({ page }) => {
    await newDraft(page, "Echo");
    await page.getByLabel("New draft from a template").selectOption({ label: "Loop with logs" });
    await expect(editorLines(page)).toContainText("sleep");
    await page.getByLabel("New draft from a template").selectOption({ label: "Async work" });
    await expect(editorLines(page)).toContainText("allSettled");
    const drafts = page.getByRole("navigation", { name: "Drafts" });
    const expected = [
      { name: /^echo-/, text: "Echo:" },
      { name: /^loop-/, text: "sleep" },
      { name: /^async-/, text: "allSettled" },
    ];
    for (let i = 0; i < 10; i++) {
      const target = expected[i % expected.length];
      if (!target) continue;
      await drafts.getByRole("button", { name: target.name }).click();
      await expect(editorLines(page)).toContainText(target.text);
      // Use the editor on each visit, so its contributions (hover, suggest, code lens) run.
      await editorLines(page).click();
    }
    // The zero console/page error assertion is in the fixture, for every test.
  });
});
