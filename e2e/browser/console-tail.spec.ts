import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test("after a flood, Clear and run again, the console still follows the tail to the end", async ({ page }) => {
  await newDraft(page, "Echo");
  await replaceEditorText(
    page,
    `export default {\n  async run() {\n    for (let i = 0; i < 100000; i++) console.log("line", i);\n    return "flooded";\n  },\n};\n`,
  );
  for (let round = 0; round < 4; round++) {
    await page.getByRole("button", { name: "Clear", exact: true }).click();
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("flooded");
    // The run's last line is on screen, not somewhere below the visible part.
    await expect(page.getByTestId("console-end").last()).toBeInViewport();
  }
});
