import { gadgetFiles, withWorkspace } from "./api-helpers.ts";
import { expect, test } from "./fixtures.ts";

const overflowsSideways = (page: import("@playwright/test").Page) =>
  page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

test.describe("the IDE's looks", () => {
  test.use({ viewport: { width: 1024, height: 700 } });

  test("toolbar with icons and tooltips, status bar, compact filters, shortcut sheet — at 1024×700", async ({
    page,
  }, testInfo) => {
    await page.goto("/");
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    const toolbar = page.getByRole("navigation", { name: "Toolbar" });
    for (const [name, tooltip] of [
      ["Format", "(Ctrl+S)"],
      ["Share", "embed snippet"],
      ["Publish", "backend can call"],
      ["Commands", "(Ctrl+K)"],
      ["Shortcuts", "(?)"],
    ] as const) {
      const button = toolbar.getByRole("button", { name, exact: true });
      await expect(button).toBeVisible();
      await expect(button).toHaveAttribute("title", new RegExp(tooltip.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")));
      await expect(button.locator("svg")).toBeVisible();
    }
    // Empty states teach.
    await expect(page.getByTestId("console-empty")).toContainText("Ctrl+Enter");
    await page.getByTestId("problems-tab").click();
    await expect(page.getByTestId("problems-empty")).toContainText("click a frame");
    await page.getByRole("tab", { name: /Console/ }).click();

    // Compact filters: toggles, not a row of checkboxes.
    await expect(page.getByRole("checkbox", { name: /Show/ })).toHaveCount(0);
    const warn = page.getByRole("button", { name: "Show warn lines" });
    await expect(warn).toHaveAttribute("aria-pressed", "true");
    await warn.click();
    await expect(warn).toHaveAttribute("aria-pressed", "false");
    await warn.click();

    // The status bar: connection, run state, then the last run's timings.
    const status = page.getByTestId("status-bar");
    await expect(status.getByTestId("connection")).toHaveText("connected");
    await expect(status.getByTestId("status-run")).toContainText("Ctrl+Enter");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(status.getByTestId("status-run")).toHaveText("last run ok");
    await expect(status.getByTestId("status-timings")).toContainText(/queue \d+ ms · build \d+ ms · run \d+ ms/);
    await expect(status.getByTestId("status-quota")).toContainText(/Storage: [\d.]+ KB of [\d.]+ MB/);

    // Everything fits: nothing sideways, the run button and the console on screen.
    expect(await overflowsSideways(page)).toBe(false);
    await expect(page.getByRole("button", { name: "Run", exact: true })).toBeInViewport();
    await expect(page.getByTestId("console")).toBeInViewport();
    await page.screenshot({ path: testInfo.outputPath("ide-1024x700.png") });

    // The shortcut sheet: "?" outside the editor, Escape closes.
    await page.getByTestId("status-bar").click();
    await page.keyboard.press("?");
    const sheet = page.getByTestId("shortcut-sheet");
    await expect(sheet).toContainText("Command palette");
    await expect(sheet).toContainText("F12");
    await page.keyboard.press("Escape");
    await expect(sheet).toHaveCount(0);
  });

  test("dark and light themes match the editor's", async ({ page }) => {
    await page.goto("/");
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    // Both colours as the screen shows them (the page's are oklch, the editor's hex): painted, then read back.
    const colors = () =>
      page.evaluate(() => {
        const rgb = (color: string) => {
          const context = document.createElement("canvas").getContext("2d");
          if (!context) return [0, 0, 0];
          context.fillStyle = color;
          context.fillRect(0, 0, 1, 1);
          return [...context.getImageData(0, 0, 1, 1).data.slice(0, 3)];
        };
        const background = (selector: string) =>
          getComputedStyle(document.querySelector(selector) ?? document.body).backgroundColor;
        return {
          page: rgb(background("#root > div")),
          editor: rgb(background(".monaco-editor-background")),
          dark: document.documentElement.classList.contains("dark"),
        };
      });
    const toggle = page.getByRole("button", { name: /Switch to (dark|light) theme/ });
    for (let i = 0; i < 2; i++) {
      const { page: pageColor, editor, dark } = await colors();
      expect(editor).toEqual(dark ? [9, 9, 11] : [255, 255, 255]);
      for (const [i, channel] of pageColor.entries())
        expect(Math.abs(channel - (editor[i] ?? 0))).toBeLessThanOrEqual(2);
      await toggle.click();
      await expect.poll(async () => (await colors()).dark).toBe(!dark);
    }
  });

  test("a phone-width embed keeps its controls on screen", async ({ page }) => {
    await page.setViewportSize({ width: 360, height: 640 });
    const shareId = await withWorkspace(async (session) => {
      const draft = await session.createDraft({
        files: gadgetFiles(
          "a-gadget-with-a-rather-long-name",
          `export default { async run() { console.log("a fairly long line of output that must wrap, not widen the page"); return 1; } };`,
        ),
      });
      return (await session.shareDraft(draft.id, null)).shareId;
    });
    await page.goto(`/embed/${shareId}`);
    await expect(page.getByRole("button", { name: "Run" })).toBeInViewport();
    await expect(page.getByRole("link", { name: "Open in Workshop" })).toBeInViewport();
    await page.getByRole("button", { name: "Run" }).click();
    await expect(page.getByTestId("embed-outcome")).toContainText("→ 1");
    expect(await overflowsSideways(page)).toBe(false);
  });
});
