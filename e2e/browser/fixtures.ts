import { type BrowserContext, expect, type Page, test as base } from "@playwright/test";
import { createRpcClient } from "@gadgets/workshop-shared";

/** What went wrong in any page or frame of the test's browser context. */
interface ErrorLog {
  console: string[];
  page: string[];
  /** Console errors a test expects (a 404 it provoked, a refused frame): matched and not counted. */
  allowed: RegExp[];
}

function watchPage(page: Page, log: ErrorLog): void {
  // An exception without frames (a ResizeObserver loop, a thrown non-Error) has an empty stack: name it by its message.
  page.on("pageerror", (error) => log.page.push(`${page.url()}: ${error.stack || `${error.name}: ${error.message}`}`));
  page.on("console", (message) => {
    if (message.type() === "error") log.console.push(`${message.location().url || page.url()}: ${message.text()}`);
  });
}

function watchContext(context: BrowserContext, log: ErrorLog): void {
  for (const page of context.pages()) watchPage(page, log);
  context.on("page", (page) => watchPage(page, log));
}

/**
 * Every browser test: records the requests it makes (so a test can assert none left 127.0.0.1), and
 * ends with zero console errors and zero page errors in every page of its context — a test that
 * provokes one on purpose names it with `allowConsoleErrors(/pattern/)`.
 */
export const test = base.extend<{
  requests: string[];
  allowConsoleErrors: (...patterns: RegExp[]) => void;
  errorLog: ErrorLog;
}>({
  errorLog: [
    async ({ context, browser }, use) => {
      const log: ErrorLog = { console: [], page: [], allowed: [] };
      watchContext(context, log);
      // Contexts a test opens itself (a second visitor) are watched too.
      const newContext = browser.newContext.bind(browser);
      browser.newContext = (async (...args: Parameters<typeof newContext>) => {
        const opened = await newContext(...args);
        watchContext(opened, log);
        return opened;
      }) as typeof browser.newContext;
      try {
        await use(log);
      } finally {
        browser.newContext = newContext;
      }
      const unexpected = log.console.filter((text) => !log.allowed.some((pattern) => pattern.test(text)));
      expect(log.page, "page errors (uncaught exceptions) in the browser").toEqual([]);
      expect(unexpected, "console errors in the browser").toEqual([]);
    },
    { auto: true },
  ],
  allowConsoleErrors: async ({ errorLog }, use) => {
    await use((...patterns) => errorLog.allowed.push(...patterns));
  },
  requests: async ({ page }, use) => {
    const requests: string[] = [];
    page.on("request", (request) => requests.push(request.url()));
    await use(requests);
  },
});
export { expect };

/** Opens the IDE and creates a draft from a template; resolves when its editor shows. */
export async function newDraft(page: Page, template: "Echo" | "Loop with logs" | "Async work" = "Echo"): Promise<void> {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await page.getByLabel("New draft from a template").selectOption({ label: template });
  // The new draft is the open one (not the example a first visit opens by itself).
  const prefix = { Echo: "echo-", "Loop with logs": "loop-", "Async work": "async-" }[template];
  await expect(page.getByRole("navigation", { name: "Drafts" }).locator('[aria-current="true"]')).toContainText(prefix);
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
  await expect(page.getByTestId("save-state")).toContainText("saved");
}

/** Replaces the text of the editor's current file by select-all and paste, as a person would. */
export async function replaceEditorText(page: Page, text: string): Promise<void> {
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.locator(".monaco-editor .view-lines").first().click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.evaluate((value) => navigator.clipboard.writeText(value), text);
  await page.keyboard.press("ControlOrMeta+V");
  await expect(page.locator(".monaco-editor .view-lines").first()).toContainText(
    text.split("\n")[0]?.slice(0, 20) ?? "",
  );
}

/**
 * Raises the page's workspace run timeout: a busy machine can take more than the default 2 s to log a
 * few thousand lines, and tests of the console are about the view, not the timeout. A session reads the
 * settings when it opens, so the page reloads.
 */
export async function allowLongRuns(page: Page, runTimeoutMs = 20_000): Promise<void> {
  const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
  try {
    await client.getSession().updateSettings({ runTimeoutMs });
  } finally {
    client[Symbol.dispose]();
  }
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await expect(page.locator(".monaco-editor").first()).toBeVisible();
}
