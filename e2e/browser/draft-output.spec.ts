import type { Page } from "@playwright/test";
import { gadgetFiles, pageSession } from "./api-helpers.ts";
import { expect, test } from "./fixtures.ts";

const CALLER = `export default { async run() { console.log("caller line"); return "caller result"; } };`;
// Slow enough to switch drafts while it goes: a line every 150 ms, the result after them.
const TICKER = `export default {
  async run() {
    for (let i = 1; i <= 6; i++) {
      console.log("tick", i);
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
    return "ticker result";
  },
};`;

const overflowsSideways = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Opens the IDE's first visit, then makes the drafts "caller" and "ticker" in its workspace. */
async function twoDrafts(page: Page): Promise<void> {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await pageSession(page, async (session) => {
    await session.createDraft({ files: gadgetFiles("caller", CALLER) });
    await session.createDraft({ files: gadgetFiles("ticker", TICKER) });
  });
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
}

const drafts = (page: Page) => page.getByRole("navigation", { name: "Drafts" });

async function openDraft(page: Page, name: string): Promise<void> {
  await drafts(page)
    .getByRole("button", { name: new RegExp(`^${name} saved`) })
    .click();
  await expect(drafts(page).locator('[aria-current="true"]')).toContainText(name);
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
}

const tab = (page: Page, name: string) => page.getByRole("tab", { name: new RegExp(`^${name}`) });

test.describe("each draft's own output", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("switching drafts never shows another draft's output, even while a run streams; reload restores the last run", async ({
    page,
  }) => {
    await twoDrafts(page);
    const console = page.getByTestId("console");
    await openDraft(page, "caller");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("caller result");
    await expect(console).toContainText("caller line");

    // Another draft: its own (empty) output, none of caller's.
    await openDraft(page, "ticker");
    await expect(page.getByTestId("run-result")).toHaveCount(0);
    await expect(page.getByTestId("console-empty")).toBeVisible();
    await expect(console).not.toContainText("caller line");
    await tab(page, "Trace").click();
    await expect(page.getByTestId("trace-empty")).toBeVisible();
    await tab(page, "Console").click();

    // A run of ticker goes on while caller is shown: caller keeps its own output, ticker's keeps streaming.
    await page.getByTestId("run-button").click();
    await expect(console).toContainText(/tick\s?1/);
    await openDraft(page, "caller");
    await expect(page.getByTestId("run-result")).toContainText("caller result");
    await expect(console).toContainText("caller line");
    await expect(console).not.toContainText("tick");
    await openDraft(page, "ticker");
    await expect(page.getByTestId("run-result")).toContainText("ticker result");
    for (const n of [1, 6]) await expect(console).toContainText(new RegExp(`tick\\s?${n}`));
    await expect(console).not.toContainText("caller line");

    // Reload: the open draft's last run comes back from its record (result, console, trace).
    await page.reload();
    await expect(page.getByTestId("connection")).toHaveText("connected");
    await expect(page.getByTestId("run-result")).toContainText("ticker result");
    await expect(page.getByTestId("run-recorded")).toBeVisible();
    await expect(console).toContainText(/tick\s?6/);
    await expect(console).not.toContainText("caller line");
    await tab(page, "Trace").click();
    await expect(page.getByTestId("trace-span").first()).toContainText("run ticker");

    // And caller's, once it is opened again.
    await openDraft(page, "caller");
    await expect(page.getByTestId("run-result")).toContainText("caller result");
    await tab(page, "Console").click();
    await expect(console).toContainText("caller line");
    await expect(console).not.toContainText("tick");
  });

  test("the Runs tab lists the draft's runs in words; opening one shows its console, result and timings", async ({
    page,
  }) => {
    await twoDrafts(page);
    await openDraft(page, "caller");
    const payload = page.locator("#payload");
    await payload.fill('{ "first": true }');
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-result")).toContainText("caller result");
    await page.getByRole("button", { name: "Clear", exact: true }).click();
    await payload.fill('{ "second": true }');
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("console")).toContainText("caller line");

    await tab(page, "Runs").click();
    const rows = page.getByTestId("run-row");
    await expect(rows).toHaveCount(2);
    await expect(page.getByTestId("runs-count")).toHaveText("2");
    await expect(rows.first()).toContainText("ok");
    await expect(rows.first()).toContainText("draft");
    await expect(rows.first()).toContainText(/\d+ ms/);
    // The shown run is marked; choosing the older one shows it in the console, with its timings above.
    await expect(rows.first().getByRole("button")).toHaveAttribute("aria-current", "true");
    await rows.nth(1).getByRole("button").click();
    await expect(tab(page, "Console")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("console")).toContainText(/caller \(draft .+, IDE \/ API, recorded\)/);
    await expect(page.getByTestId("run-recorded")).toBeVisible();
    await expect(page.getByTestId("run-result")).toContainText(/queue \d+ ms · build \d+ ms/);
    await tab(page, "Runs").click();
    await expect(rows.nth(1).getByRole("button")).toHaveAttribute("aria-current", "true");

    // Another draft's Runs are its own.
    await openDraft(page, "ticker");
    await expect(page.getByTestId("draft-runs-empty")).toContainText("No runs of this draft yet");
  });
});

test.describe("one output panel", () => {
  test.use({ viewport: { width: 1024, height: 700 } });

  test("tabs with counts, Ctrl+Shift+Enter brings Tests forward, a span shows its attributes, pane sizes survive a reload", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    // The payload box keeps at least three lines at 1024×700.
    const payloadLines = await page.locator("#payload").evaluate((box) => {
      const style = getComputedStyle(box);
      const padding = Number.parseFloat(style.paddingTop) + Number.parseFloat(style.paddingBottom);
      return (box.clientHeight - padding) / Number.parseFloat(style.lineHeight);
    });
    expect(payloadLines).toBeGreaterThanOrEqual(3);

    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("Echo:");
    await expect(page.getByTestId("console-count")).toHaveText(/^[1-9]\d*$/);
    await expect(page.getByTestId("trace-count")).toHaveText(/^[1-9]\d*$/);
    const output = page.getByRole("tablist", { name: "Output" });
    await expect(output.getByRole("tab")).toHaveText([/^Console/, /^Trace/, /^Tests/, /^Problems/, /^Runs/]);

    // A span's attributes on click, in a list that fills the pane.
    await tab(page, "Trace").click();
    const spans = page.getByTestId("trace-span");
    await expect(spans).toHaveCount(Number(await page.getByTestId("trace-count").textContent()));
    await page.locator('[data-testid="trace-span"][data-kind="build"]').click();
    const details = page.getByTestId("span-details");
    await expect(details).toContainText("build.cached");
    await expect(details).toContainText("duration");
    await page.locator('[data-testid="trace-span"][data-kind="build"]').click();
    await expect(details).toHaveCount(0);

    // Ctrl/Cmd+Shift+Enter from the console: the tests run and their tab comes forward.
    await tab(page, "Console").click();
    await page.keyboard.press("ControlOrMeta+Shift+Enter");
    await expect(tab(page, "Tests")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByRole("tabpanel", { name: /^Tests/ })).toBeVisible();

    // The column split, moved by keyboard, is kept across a reload.
    const runColumn = page.getByRole("region", { name: "Run", exact: true });
    const before = (await runColumn.boundingBox())?.width ?? 0;
    await page.getByRole("separator", { name: "Resize the editor and the run column" }).focus();
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowLeft");
    await expect.poll(async () => (await runColumn.boundingBox())?.width ?? 0).toBeGreaterThan(before + 40);
    const moved = (await runColumn.boundingBox())?.width ?? 0;
    await page.reload();
    await expect(page.locator(".monaco-editor").first()).toBeVisible();
    await expect.poll(async () => Math.round((await runColumn.boundingBox())?.width ?? 0)).toBe(Math.round(moved));
    expect(await overflowsSideways(page)).toBe(false);
  });
});

test.describe("on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("the IDE is one column (Code · Run · Output) with the sidebar in a drawer; the IDE, /s/, /r/ and the embed never scroll sideways", async ({
    page,
  }) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const views = page.getByTestId("narrow-tabs");
    await expect(views.getByRole("tab")).toHaveText(["Code", "Run", "Output"]);
    await expect(page.locator(".monaco-editor").first()).toBeVisible();
    expect(await overflowsSideways(page)).toBe(false);

    await page.getByRole("button", { name: "Drafts and files" }).click();
    const drawer = page.getByTestId("sidebar-drawer");
    await expect(drawer.getByRole("navigation", { name: "Drafts" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(drawer).toHaveCount(0);

    await views.getByRole("tab", { name: "Run" }).click();
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-result")).toContainText("Echo:");
    expect(await overflowsSideways(page)).toBe(false);
    await views.getByRole("tab", { name: "Output" }).click();
    await expect(page.getByTestId("console")).toContainText("Run of");
    expect(await overflowsSideways(page)).toBe(false);

    const draftId = (await page.evaluate(() => window.localStorage.getItem("workshop.activeDraft"))) ?? "";
    const { shareId, recordId } = await pageSession(page, async (session) => {
      const outcome = await session.runDraft(draftId, { input: "from a phone" });
      return {
        shareId: (await session.shareDraft(draftId, { input: "hi" })).shareId,
        recordId: (await session.shareRun(outcome.runId)).recordId,
      };
    });
    for (const path of [`/s/${shareId}`, `/r/${recordId}`, `/embed/${shareId}`]) {
      await page.goto(path);
      await expect(page.getByRole("button", { name: /Run/ }).first()).toBeVisible();
      expect(await overflowsSideways(page), path).toBe(false);
    }
  });
});
