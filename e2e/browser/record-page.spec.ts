import { withWorkspace } from "./api-helpers.ts";
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

test("/r/ warns before Fork which secrets the copy needs and where it may send them, in the words /s/ uses", async ({
  page,
}) => {
  const grants = {
    secrets: ["API_TOKEN"],
    fetch: {
      hosts: ["api.example.com", "cdn.example.com"],
      headers: { "api.example.com": { Authorization: "Bearer {{GITHUB_TOKEN}}" } },
    },
  };
  const { recordId, shareId } = await withWorkspace(async (session) => {
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "keyed", entry: "index.ts", grants }) },
        { path: "index.ts", content: `export default { async run() { return "fetched nothing"; } };\n` },
      ],
    });
    const outcome = await session.runDraft(draft.id, null);
    const { recordId } = await session.shareRun(outcome.runId);
    return { recordId, shareId: (await session.shareDraft(draft.id, null)).shareId };
  });

  await page.goto(`/s/${shareId}`);
  const shareNote = page.getByTestId("fork-secrets-notice");
  await expect(shareNote).toContainText(
    "may fetch from api.example.com (with secrets in the headers), cdn.example.com.",
  );
  const words = (await shareNote.textContent()) ?? "";

  await page.goto(`/r/${recordId}`);
  await expect(page.getByTestId("replay-notice")).toContainText(
    "This run used fetch (api.example.com, cdn.example.com), secrets.",
  );
  const note = page.getByTestId("fork-secrets-notice");
  await expect(note).toHaveText(words);
  await expect(note).toContainText("set API_TOKEN, GITHUB_TOKEN in your workspace (Manage secrets…)");
  const fork = page.getByRole("button", { name: "Fork", exact: true });
  await expect(fork).toHaveAccessibleDescription(words);
  await fork.click();
  await expect(page.getByTestId("fork-done")).toContainText("Forked into your workspace");

  // The copy indeed arrives without them: the IDE lists both as not set.
  await page.getByRole("button", { name: "Open in Workshop" }).click();
  await expect(page).toHaveURL(/\/$/);
  const granted = page.getByTestId("granted-secrets");
  await expect(granted.getByRole("listitem").filter({ hasText: "API_TOKEN" })).toContainText(
    "not set in this workspace",
  );
  await expect(granted.getByRole("listitem").filter({ hasText: "GITHUB_TOKEN" })).toContainText(
    "not set in this workspace",
  );
});
