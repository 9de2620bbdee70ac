import type { Page } from "@playwright/test";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

const editorLines = (page: Page) => page.locator(".monaco-editor .view-lines").first();

test("debug", async ({ page }) => {
  page.on("console", (m) => { if (m.text().startsWith("DBG")) console.log(m.text()); });
  await newDraft(page, "Echo");
  await page.evaluate(() => {
    const w = window as unknown as Record<string, any>;
    const ed = w.__dbgEditor;
    const m = w.__dbgMonaco;
    const t0 = performance.now();
    const at = () => Math.round(performance.now() - t0);
    const ctl = ed.getContribution("editor.contrib.codeActionController");
    const model = ctl._model;
    const orig = model.setState.bind(model);
    model.setState = (st: any, x: any) => {
      console.log("DBG", at(), "setState", st.type, st.trigger?.type, new Error().stack?.split("\n").slice(2, 6).join(" | "));
      if (st.type === 1) st.actions.then((a: any) => console.log("DBG", at(), "actions of", st.trigger.type, a.validActions.map((v: any) => v.action.title).join(";")));
      return orig(st, x);
    };
    m.editor.onDidChangeMarkers((uris: any[]) => console.log("DBG", at(), "markers", uris.map((u) => u.toString()).join(","), JSON.stringify(m.editor.getModelMarkers({}).map((k: any) => [k.owner, k.startLineNumber, k.message.slice(0, 40)]))));
    ed.onDidChangeCursorPosition((e: any) => console.log("DBG", at(), "cursor", e.position.lineNumber, e.position.column, e.reason, e.source));
    ed.onDidChangeModelContent(() => console.log("DBG", at(), "content"));
    ed.onDidChangeModel(() => console.log("DBG", at(), "model"));
    document.addEventListener("keydown", (e) => console.log("DBG", at(), "key", e.key, e.ctrlKey), true);
  });
  await replaceEditorText(page, 'import { z } from "fx-zod";\n\nexport default { run: () => z };\n');
  await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
  await editorLines(page).click();
  await page.keyboard.press("Control+G");
  await page.keyboard.type("1:22");
  await page.keyboard.press("Enter");
  await expect(page.locator(".quick-input-widget")).toBeHidden();
  await page.keyboard.press("Control+.");
  await page.waitForTimeout(4000);
  console.log("WIDGET", await page.locator(".action-widget .title").allInnerTexts());
});
