import { allowLongRuns, expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test.describe("the IDE", () => {
  test("newcomer flow: edit echo, Ctrl+Enter, watch the log arrive before the result", async ({
    page,
    requests,
  }, testInfo) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {
  async run(payload: { input: string }, env: GadgetEnv) {
    console.log("first line", payload.input);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    return "Hello, " + payload.input;
  },
};
`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    const line = page.getByTestId("console-line").filter({ hasText: "first line" });
    await expect(line).toBeVisible();
    // The log is on screen while the run is still going.
    await expect(page.getByTestId("run-status")).toContainText("running");
    await expect(page.getByTestId("run-result")).toContainText("Hello, hello");
    await page.screenshot({ path: testInfo.outputPath("main-flow.png"), fullPage: true });
    await testInfo.attach("main-flow", { path: testInfo.outputPath("main-flow.png"), contentType: "image/png" });
    expect(
      requests.filter(
        (url) =>
          !url.startsWith("http://127.0.0.1") &&
          !url.startsWith("ws://127.0.0.1") &&
          !url.startsWith("data:") &&
          !url.startsWith("blob:"),
      ),
    ).toEqual([]);
  });

  test("a type error gets a squiggle", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run(payload: { input: string }) {\n    const n: number = payload.input;\n    return n;\n  },\n};\n`,
    );
    await expect(page.locator(".monaco-editor .squiggly-error").first()).toBeVisible();
  });

  test("clicking a stack frame opens the file at that line", async ({ page }) => {
    await newDraft(page, "Async work");
    await page.getByRole("tab", { name: "score.ts" }).click();
    await replaceEditorText(
      page,
      `export async function score(word: string): Promise<number> {\n  if (word) {\n    throw new TypeError("no scores today");\n  }\n  return 1;\n}\n`,
    );
    await page.getByRole("tab", { name: "index.ts" }).click();
    await replaceEditorText(
      page,
      `import { score } from "./score";\nexport default {\n  async run() {\n    return score("x");\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    const frame = page.getByRole("button", { name: /Open score\.ts at line 3/ }).first();
    await expect(frame).toBeVisible();
    await frame.click();
    await expect(page.getByRole("tab", { name: "score.ts" })).toHaveAttribute("aria-selected", "true");
    await expect(
      page.locator(".monaco-editor .current-line ~ .view-line, .monaco-editor .view-overlays .current-line").first(),
    ).toBeVisible();
    const cursorLine = await page.evaluate(
      () => document.querySelector(".monaco-editor .line-numbers.active-line-number")?.textContent,
    );
    expect(cursorLine?.trim()).toBe("3");
  });

  test("an infinite loop ends with the timeout message and the page stays responsive", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run() {\n    console.log("looping");\n    while (true) {}\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("console-line").filter({ hasText: "looping" })).toBeVisible();
    // The page answers while the gadget spins: the theme toggles at once.
    await page.getByRole("button", { name: /Switch to (dark|light) theme/ }).click();
    await expect(page.getByTestId("run-result")).toContainText("longer than 2000 ms", { timeout: 10_000 });
  });

  test("logged markup is shown as text and runs nothing", async ({ page }) => {
    let dialogs = 0;
    page.on("dialog", (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run() {\n    console.log('<img src=x onerror="alert(1)">', { html: "<script>alert(2)</script>" });\n    return '<b onmouseover="alert(3)">x</b>';\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("console-line").filter({ hasText: '<img src=x onerror="alert(1)">' })).toBeVisible();
    await expect(page.getByTestId("run-result")).toContainText("onmouseover");
    expect(await page.locator("#root img").count()).toBe(0);
    expect(dialogs).toBe(0);
  });

  test("reload keeps edits", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, `// kept across reloads\nexport default { async run() { return 1; } };\n`);
    await page.reload();
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("kept across reloads");
  });

  test("two tabs editing one draft produce a visible conflict, not an overwrite", async ({ page, context }) => {
    await newDraft(page, "Echo");
    const second = await context.newPage();
    await second.goto("/");
    await expect(second.locator(".monaco-editor").first()).toBeVisible();
    await replaceEditorText(page, `// tab one\nexport default { async run() { return 1; } };\n`);
    await expect(page.getByTestId("save-state")).toContainText("saved #2");
    await replaceEditorText(second, `// tab two\nexport default { async run() { return 2; } };\n`);
    await expect(second.getByTestId("conflict")).toBeVisible();
    await expect(second.getByTestId("conflict")).toContainText("changed elsewhere");
    await second.getByRole("button", { name: "Take theirs" }).click();
    await expect(second.locator(".monaco-editor .view-lines").first()).toContainText("tab one");
  });

  test("a log flood stays usable and reports dropped lines", async ({ page }) => {
    await newDraft(page, "Echo");
    await allowLongRuns(page);
    await replaceEditorText(
      page,
      `export default {\n  async run() {\n    for (let i = 0; i < 10000; i++) console.log("line", i);\n    return "flooded";\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("flooded");
    await expect(page.getByTestId("console")).toContainText("lines dropped");
    // Virtualised: only a window of the lines is in the DOM.
    expect(await page.getByTestId("console-line").count()).toBeLessThan(200);
  });

  test("keyboard: every control has a name and the run button is reachable", async ({ page }) => {
    await newDraft(page, "Echo");
    const unnamed = await page.evaluate(
      () =>
        [...document.querySelectorAll("button, select, input, textarea")].filter((el) => {
          if (el.closest('[aria-hidden="true"]')) return false;
          const label =
            el.getAttribute("aria-label") ||
            el.textContent?.trim() ||
            (el.id && document.querySelector(`label[for="${el.id}"]`)) ||
            el.closest("label");
          return !label;
        }).length,
    );
    expect(unnamed).toBe(0);
    await page.getByRole("button", { name: "Run", exact: true }).focus();
    await page.keyboard.press("Enter");
    await expect(page.getByTestId("run-result")).toContainText("Echo: hello");
  });
});
