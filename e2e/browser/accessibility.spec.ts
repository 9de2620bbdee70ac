/**
 * WCAG 2.2 AA, checked by axe-core on every kind of page: the IDE (light, dark, a dialog open), a shared
 * gadget (`/s/`), a run record (`/r/`) and the embed. Serious and critical violations fail the test;
 * moderate and minor ones (and best practices) are printed, to be read. Also the keyboard: dialogs keep
 * and give back focus, the console's object trees open from the keyboard, resizers move with arrows.
 */

import AxeBuilder from "@axe-core/playwright";
import { createRpcClient, type JsonValue } from "@gadgets/workshop-shared";
import type { Page } from "@playwright/test";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"];

/** Runs axe on the page as it is; fails on serious and critical violations and prints the others. */
async function audit(page: Page, where: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).withTags(TAGS).analyze();
  const words = (violation: (typeof violations)[number]) =>
    `${where}: ${violation.impact} ${violation.id} — ${violation.help}: ${violation.nodes
      .slice(0, 6)
      .map((node) => `${node.target.join(" ")} (${node.failureSummary?.split("\n").slice(1).join(" ").trim()})`)
      .join("; ")}${violation.nodes.length > 6 ? `; and ${violation.nodes.length - 6} more` : ""}`;
  const blocking = violations.filter((violation) => violation.impact === "critical" || violation.impact === "serious");
  for (const violation of violations) if (!blocking.includes(violation)) console.log(words(violation));
  expect(blocking.map(words), `serious and critical axe violations on ${where}`).toEqual([]);
}

const LOGGER = `export default {
  async run(payload: { input: string }) {
    console.log("got", { input: payload.input, nested: { deep: [1, 2, 3] }, flag: true });
    return { echoed: payload.input };
  },
};
`;

type PageSession = ReturnType<ReturnType<typeof createRpcClient>["getSession"]>;

async function pageSession<T>(page: Page, use: (session: PageSession) => Promise<T>): Promise<T> {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
  try {
    return await use(client.getSession());
  } finally {
    client[Symbol.dispose]();
  }
}

/** A shared draft and the record of one of its runs, made over RPC in the page's workspace. */
async function shareAndRecord(page: Page): Promise<{ shareId: string; recordId: string }> {
  return pageSession(page, async (session) => {
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "logger", entry: "index.ts" }) },
        { path: "index.ts", content: LOGGER },
      ],
    });
    const payload: JsonValue = { input: "hi" };
    const { shareId } = await session.shareDraft(draft.id, payload);
    const outcome = await session.runDraft(draft.id, payload);
    const { recordId } = await session.shareRun(outcome.runId);
    return { shareId, recordId };
  });
}

test.describe("accessibility", () => {
  test("the IDE in light and dark, with a dialog open, has no serious or critical axe violations", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, LOGGER);
    await expect(page.getByTestId("save-state")).toContainText("saved");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("echoed");
    await audit(page, "the IDE (light)");

    await page.getByRole("button", { name: "Switch to dark theme" }).click();
    await expect(page.locator("html")).toHaveClass(/dark/);
    await audit(page, "the IDE (dark)");

    await page.getByRole("button", { name: /^Help/ }).first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await audit(page, "the IDE (dark) with the Help dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Switch to light theme" }).click();
    await page.getByRole("button", { name: /^Help/ }).first().click();
    await audit(page, "the IDE (light) with the Help dialog");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: "Package registry…" }).click();
    await expect(page.getByTestId("registry-setting")).toBeVisible();
    await audit(page, "the IDE (light) with the Package registry dialog");
  });

  test("dialogs take focus, keep it from the page under them, and give it back on Escape", async ({ page }) => {
    await newDraft(page, "Echo");
    for (const name of [/^Help/, /^Connect/, /^Runs/, /^Package registry/]) {
      const opener = page.getByRole("button", { name }).first();
      await opener.focus();
      await page.keyboard.press("Enter");
      const dialog = page.getByRole("dialog");
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      for (let i = 0; i < 25; i++) {
        await page.keyboard.press(i % 5 === 4 ? "Shift+Tab" : "Tab");
        expect(await dialog.evaluate((element) => element.contains(document.activeElement)), `${name}: Tab ${i}`).toBe(
          true,
        );
      }
      // A click on the backdrop does not hand focus to the page under it.
      await page.mouse.click(2, 2);
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
      await page.keyboard.press("Escape");
      await expect(dialog).toBeHidden();
      await expect(opener).toBeFocused();
    }
  });

  test("a logged object opens and closes from the keyboard as a tree", async ({ page }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(page, LOGGER);
    await expect(page.getByTestId("save-state")).toContainText("saved");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("echoed");

    // The console's tree (the result above it is one too).
    const tree = page.getByTestId("console-line").getByRole("tree", { name: "Value" }).filter({ hasText: "nested" });
    const root = tree.getByRole("treeitem").first();
    await expect(root).toHaveAttribute("aria-expanded", "false");
    await expect(root).toHaveAttribute("tabindex", "0");
    await root.focus();
    await page.keyboard.press("Enter");
    await expect(root).toHaveAttribute("aria-expanded", "true");
    await expect(tree.getByRole("treeitem")).toHaveCount(4);
    // Down to "input" (a leaf: no aria-expanded), down to "nested", open it with ArrowRight.
    await page.keyboard.press("ArrowDown");
    const leaf = tree.getByRole("treeitem").nth(1);
    await expect(leaf).toBeFocused();
    await expect(leaf).not.toHaveAttribute("aria-expanded");
    await page.keyboard.press("ArrowDown");
    const nested = tree.getByRole("treeitem").nth(2);
    await expect(nested).toBeFocused();
    await page.keyboard.press("ArrowRight");
    await expect(nested).toHaveAttribute("aria-expanded", "true");
    await page.keyboard.press("ArrowLeft");
    await expect(nested).toHaveAttribute("aria-expanded", "false");
    await page.keyboard.press("ArrowLeft");
    await expect(root).toBeFocused();
    await page.keyboard.press(" ");
    await expect(root).toHaveAttribute("aria-expanded", "false");
    await expect(tree.getByRole("treeitem")).toHaveCount(1);
  });

  test("resizers have names and move with the arrow keys", async ({ page }) => {
    await newDraft(page, "Echo");
    const separators = page.getByRole("separator");
    expect(await separators.count()).toBeGreaterThan(0);
    for (const separator of await separators.all()) {
      if (!(await separator.isVisible())) continue;
      await expect(separator).toHaveAccessibleName(/^Resize /);
    }
    const sidebar = page.getByRole("separator", { name: "Resize the sidebar and the editor" });
    const before = Number(await sidebar.getAttribute("aria-valuenow"));
    await sidebar.focus();
    await page.keyboard.press("ArrowRight");
    await expect.poll(async () => Number(await sidebar.getAttribute("aria-valuenow"))).toBeGreaterThan(before);
  });

  test("/s/, /r/ and the embed have no serious or critical axe violations", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const { shareId, recordId } = await shareAndRecord(page);

    await page.goto(`/s/${shareId}`);
    await expect(page.getByText("logger").first()).toBeVisible();
    await audit(page, "/s/");

    await page.goto(`/r/${recordId}`);
    await expect(page.getByTestId("record-time")).toBeVisible();
    await audit(page, "/r/");

    for (const theme of ["light", "dark"]) {
      await page.goto(`/embed/${shareId}?theme=${theme}`);
      await expect(page.getByRole("button", { name: /Run/ }).first()).toBeVisible();
      await audit(page, `the embed (${theme})`);
    }
  });
});
