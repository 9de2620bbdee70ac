import type { Locator } from "@playwright/test";
import { gadgetFiles, pageSession } from "./api-helpers.ts";
import { expect, test } from "./fixtures.ts";

/**
 * The text of the nearest element around `text` (inside `container`) whose direction cannot leak
 * (`unicode-bidi: isolate`, as `<bdi>` has), or null when nothing isolates it.
 */
function isolatingText(container: Locator, text: string): Promise<string | null> {
  return container.evaluate((root, text) => {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.textContent?.includes(text)) continue;
      for (let element = node.parentElement; element && root.contains(element); element = element.parentElement)
        if (getComputedStyle(element).unicodeBidi === "isolate") return element.textContent;
    }
    return null;
  }, text);
}

// Right-to-left letters: without isolation the text after them (numbers, a "·", "#1") is drawn on their side.
const RTL_NAME = "שלום-gadget";
// An override a thrown message may carry: without isolation it reverses everything after it on the line.
const OVERRIDE = "\u202Eevil";

test("a right-to-left draft name and an override in a message are isolated from the text after them", async ({
  page,
}) => {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  const code = `export default { async run() { console.log("ran"); throw new Error(${JSON.stringify(OVERRIDE)}); } };`;
  const draftId = await pageSession(
    page,
    async (session) => (await session.createDraft({ files: gadgetFiles(RTL_NAME, code) })).id,
  );
  await page.reload();
  const drafts = page.getByRole("navigation", { name: "Drafts" });
  await drafts.getByRole("button", { name: new RegExp(`^${RTL_NAME} saved`) }).click();
  await expect(page.locator(".monaco-editor").first()).toBeVisible();

  // The draft list and the title bar.
  await expect.poll(() => isolatingText(drafts, RTL_NAME)).toBe(RTL_NAME);
  await expect.poll(() => isolatingText(page.locator("header").first(), RTL_NAME)).toBe(RTL_NAME);

  // The console's run header.
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("console-end").last()).toBeVisible();
  const header = page
    .getByTestId("console")
    .getByText(/^Run of /)
    .last();
  await expect.poll(() => isolatingText(header, RTL_NAME)).toBe(RTL_NAME);

  // The record page: the outcome line's message stays apart from the timings after it.
  const recordId = await pageSession(page, async (session) => {
    const outcome = await session.runDraft(draftId, null);
    return (await session.shareRun(outcome.runId)).recordId;
  });
  await page.goto(`/r/${recordId}`);
  const outcome = page.getByTestId("recorded-outcome");
  await expect(outcome).toContainText("evil");
  await expect.poll(() => isolatingText(outcome, OVERRIDE)).toContain(OVERRIDE);
  expect(await isolatingText(outcome, OVERRIDE)).not.toContain("ms");
});

const LOGS_ERRORS = `export default {
  async run() {
    console.error(new Error("b-msg"));
    console.log("nested", { cause: new TypeError("c-msg") });
    return "done";
  },
};
`;

/** The lines of LOGS_ERRORS in a console: the error's name and message, its stack, a nested error's message. */
async function expectLoggedErrors(console: Locator): Promise<void> {
  const lines = console.getByTestId("console-line");
  const logged = lines.filter({ hasText: "b-msg" }).last();
  await expect(logged).toContainText("Error: b-msg");
  await expect(logged).toContainText("index.ts:3");
  const nested = lines.filter({ hasText: "nested" }).last();
  await expect(nested).toContainText("TypeError");
  await nested.getByRole("treeitem").first().click();
  await expect(nested).toContainText("c-msg");
}

test("a logged Error shows its name, message and stack in the IDE, on /r/ and in the embed", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  const { recordId, shareId } = await pageSession(page, async (session) => {
    const draft = await session.createDraft({ files: gadgetFiles("logs-errors", LOGS_ERRORS) });
    const outcome = await session.runDraft(draft.id, null);
    return {
      recordId: (await session.shareRun(outcome.runId)).recordId,
      shareId: (await session.shareDraft(draft.id, null)).shareId,
    };
  });
  await page.reload();
  await page
    .getByRole("navigation", { name: "Drafts" })
    .getByRole("button", { name: /^logs-errors saved/ })
    .click();
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("console-end").last()).toBeVisible();

  await expectLoggedErrors(page.getByTestId("console"));
  await page.goto(`/r/${recordId}`);
  await expectLoggedErrors(page.getByRole("region", { name: "Recorded" }));

  await page.goto(`/embed/${shareId}?autorun=1`);
  await expect(page.getByTestId("embed-outcome")).toContainText("done");
  const embedded = page.getByTestId("embed-console").getByTestId("console-line");
  await expect(embedded.filter({ hasText: "b-msg" })).toContainText("Error: b-msg");
  await expect(embedded.filter({ hasText: "b-msg" })).toContainText("index.ts:3");
  await expect(embedded.filter({ hasText: "nested" })).toContainText("c-msg");
});
