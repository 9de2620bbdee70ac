import { allowLongRuns, expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test("after floods, with and without Clear, the console still follows the tail to the end", async ({ page }) => {
  // Six floods in a row: slow on a loaded machine.
  test.setTimeout(180_000);
  await newDraft(page, "Echo");
  await allowLongRuns(page);
  // More lines than one run's stream carries, so three runs fill the console to its cap: from then on the
  // number of entries stays the same while new ones arrive.
  await replaceEditorText(
    page,
    `export default {\n  async run(payload: { round: number }) {\n    for (let i = 0; i < 3000; i++) console.log("line", i);\n    return "round " + payload.round;\n  },\n};\n`,
  );
  const log = page.getByTestId("console");
  for (let round = 1; round <= 6; round++) {
    if (round <= 2) await page.getByRole("button", { name: "Clear", exact: true }).click();
    await page.locator("#payload").fill(JSON.stringify({ round }));
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText(`round ${round}`);
    // The view is at the very end, with this run's last line on screen.
    await expect
      .poll(() => log.evaluate((el) => el.scrollHeight - el.scrollTop - el.clientHeight), { message: `round ${round}` })
      .toBeLessThan(40);
    await expect(page.getByTestId("console-end").last()).toBeInViewport();
  }
});
