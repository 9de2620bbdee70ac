import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test.describe("share links and run records", () => {
  test("share → open in a fresh browser → Run → Fork → the fork is editable", async ({ page, browser }) => {
    await newDraft(page, "Echo");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const notice = page.getByTestId("notice");
    await expect(notice).toContainText("/s/");
    const link = /Link: (http\S+?\/[sr]\/[A-Za-z0-9_-]{22})/.exec((await notice.textContent()) ?? "")?.[1] ?? "";

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    const response = await visit.goto(link);
    expect(response?.status()).toBe(200);
    await expect(visit).toHaveTitle(/— Gadget Workshop$/);
    await expect(visit.getByText("read-only")).toBeVisible();
    await expect(visit.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    await visit.getByRole("button", { name: "Run" }).click();
    await expect(visit.getByTestId("run-result")).toContainText("Echo: hello");
    await visit.getByRole("button", { name: "Fork" }).click();
    await expect(visit).toHaveURL(/\/$/);
    await expect(visit.getByTestId("connection")).toHaveText("connected");
    await expect(visit.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    await replaceEditorText(visit, `export default { async run() { return "forked and changed"; } };\n`);
    await visit.keyboard.press("ControlOrMeta+Enter");
    await expect(visit.getByTestId("run-result")).toContainText("forked and changed");
    await visitor.close();
  });

  test("a shared run replays its console and its re-run shows what changed", async ({ page, browser }) => {
    await newDraft(page, "Echo");
    await replaceEditorText(
      page,
      `export default {\n  async run() {\n    console.log("steady line");\n    console.log("token", crypto.randomUUID());\n    return crypto.randomUUID();\n  },\n};\n`,
    );
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("total");
    await page.getByRole("button", { name: "Share run" }).click();
    await expect(page.getByTestId("notice")).toContainText("/r/");
    const link =
      /Link: (http\S+?\/[sr]\/[A-Za-z0-9_-]{22})/.exec((await page.getByTestId("notice").textContent()) ?? "")?.[1] ??
      "";

    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    await visit.goto(link);
    const recorded = visit.getByTestId("recorded-console");
    await expect(recorded.getByTestId("console-line").filter({ hasText: "steady line" })).toBeVisible();
    await visit.getByRole("button", { name: "Replay" }).click();
    await expect(recorded.getByTestId("console-line").filter({ hasText: "token" })).toBeVisible();
    await visit.getByRole("button", { name: "Run again" }).click();
    const diff = visit.getByTestId("run-diff");
    await expect(diff).toContainText("result:");
    await expect(diff).toContainText("token");
    await expect(diff).not.toContainText("steady line");
    await expect(
      visit.getByTestId("rerun-console").getByTestId("console-line").filter({ hasText: "steady line" }),
    ).toBeVisible();
    await visitor.close();
  });

  test("'Open in Workshop' from an embed lands in the IDE with the gadget forked, after one click", async ({
    page,
    browser,
  }) => {
    await newDraft(page, "Echo");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const link =
      /Link: (http\S+?\/[sr]\/[A-Za-z0-9_-]{22})/.exec((await page.getByTestId("notice").textContent()) ?? "")?.[1] ??
      "";
    const visitor = await browser.newContext();
    const visit = await visitor.newPage();
    await visit.goto(`${link}?fork=1`);
    // A link alone changes nothing: the visitor confirms the fork.
    await visit.getByRole("button", { name: "Fork and open" }).click();
    await expect(visit).toHaveURL(/\/$/);
    await expect(visit.getByTestId("save-state")).toContainText("saved #1");
    await expect(visit.locator(".monaco-editor .view-lines").first()).toContainText("Echo:");
    await visitor.close();
  });

  test("unknown and malformed links show the same not-found page", async ({ page, allowConsoleErrors }) => {
    // Each 404 page load is reported by the browser itself.
    allowConsoleErrors(/status of 404/);
    for (const path of [
      "/s/AAAAAAAAAAAAAAAAAAAAAA",
      "/s/not%20an%20id",
      "/s/%",
      "/r/%E0%A4%A",
      "/r/AAAAAAAAAAAAAAAAAAAAAA",
      "/s/AAAAAAAAAAAAAAAAAAAAAA/extra",
      "/s/",
      "/r/",
      "/definitely/not/a/page",
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      expect(response?.headers()["content-type"], path).toContain("text/html");
      await expect(page.getByTestId("not-found")).toContainText("This link does not exist");
      await expect(page.getByRole("link", { name: "Open the Workshop" })).toBeVisible();
    }
  });

  test("a link preview names the gadget, and a hostile name stays text", async ({ page, request }) => {
    await newDraft(page, "Echo");
    await page.getByRole("tab", { name: "gadget.json" }).click();
    await replaceEditorText(
      page,
      JSON.stringify({ name: '"><script>alert(1)</script>', entry: "index.ts", description: "a <b>bold</b> claim" }),
    );
    await expect(page.getByTestId("save-state")).toContainText("saved #2");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const link =
      /Link: (http\S+?\/[sr]\/[A-Za-z0-9_-]{22})/.exec((await page.getByTestId("notice").textContent()) ?? "")?.[1] ??
      "";
    const html = await (await request.get(link)).text();
    // Parsed as a browser would: the name is text in the title and attributes, never an element.
    const parsed = await page.evaluate((source) => {
      const doc = new DOMParser().parseFromString(source, "text/html");
      return {
        title: doc.title,
        description: doc.querySelector('meta[name="description"]')?.getAttribute("content"),
        ogTitle: doc.querySelector('meta[property="og:title"]')?.getAttribute("content"),
        inlineScripts: [...doc.querySelectorAll("script")].filter((script) => !script.src).length,
      };
    }, html);
    expect(parsed).toEqual({
      title: '"><script>alert(1)</script> — Gadget Workshop',
      description: "a <b>bold</b> claim",
      ogTitle: '"><script>alert(1)</script> — Gadget Workshop',
      inlineScripts: 0,
    });
  });
});
