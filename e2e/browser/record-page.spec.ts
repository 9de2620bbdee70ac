import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test("/r/ says up front that capabilities can't be replayed, shows when the run happened, and forks", async ({
  page,
}) => {
  await newDraft(page, "Echo");
  await page.getByRole("checkbox", { name: /^kv/ }).check();
  await replaceEditorText(
    page,
    `export default {\n  async run(_: unknown, env: GadgetEnv) {\n    await env.kv.put("seen", "1");\n    return "stored";\n  },\n};\n`,
  );
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("run-status")).toHaveText("✓ ok");
  const before = Date.now();
  await page.getByRole("button", { name: "Share run" }).click();
  const link = (await page.getByTestId("notice-link").getAttribute("href")) ?? "";
  expect(link).toMatch(/\/r\/[A-Za-z0-9_-]{22}$/);

  // Opened after it ran: the header keeps the run's own time.
  await page.goto(link);
  await expect(page.getByTestId("replay-notice")).toContainText("This run used kv");
  const ranAt = Date.parse((await page.getByTestId("record-time").getAttribute("datetime")) ?? "");
  expect(ranAt).toBeLessThanOrEqual(before);

  await page.getByRole("button", { name: "Fork" }).click();
  await expect(page.getByTestId("fork-done")).toContainText("Forked into your workspace");
  await page.getByRole("button", { name: "Open in Workshop" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator(".monaco-editor .view-lines").first()).toBeVisible();
  await expect(page.getByTestId("save-state")).toContainText("saved #1");
});
