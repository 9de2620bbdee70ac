import { readFileSync } from "node:fs";
import type { Page } from "@playwright/test";
import { createRpcClient, type OtlpTrace } from "@gadgets/workshop-shared";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

/** Console errors and page errors, which must stay empty. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") errors.push(`console: ${message.text()}`);
  });
  page.on("pageerror", (error) => errors.push(`page: ${error.message}`));
  return errors;
}

/** Publishes a "helper" agent in the page's workspace that logs a line and doubles x. */
async function publishHelper(page: Page): Promise<string> {
  const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
  try {
    const session = client.getSession();
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "helper", entry: "index.ts" }) },
        {
          path: "index.ts",
          content: `export default { async run({ x }: { x: number }) { console.log("helper says hi"); return x * 2; } };`,
        },
      ],
    });
    await session.publishDraft(draft.id);
  } finally {
    client[Symbol.dispose]();
  }
  return token;
}

const CALLER = `export default {
  async run(payload: { input: string }, env: GadgetEnv) {
    console.log("main line");
    const n = await env.catalog.get("helper").run({ x: 21 });
    return \`\${payload.input}:\${n}\`;
  },
};
`;

test.describe("tests and traces in the IDE", () => {
  test("a run's trace filters the console and downloads as OTLP; a finished run becomes a test case; failing tests need an explicit publish", async ({
    page,
  }, testInfo) => {
    const errors = watchErrors(page);
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const token = await publishHelper(page);
    await newDraft(page, "Echo");
    await page.getByRole("checkbox", { name: /catalog — call other published agents/ }).check();
    await replaceEditorText(page, CALLER);
    await expect(page.getByTestId("save-state")).toContainText("saved");
    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("hello:42");

    // The waterfall (the output panel's Trace tab): the run's steps, the catalog call and the helper's own run under it.
    await page.getByRole("tab", { name: /^Trace/ }).click();
    const spans = page.getByTestId("trace-span");
    await expect(spans.first()).toContainText("run");
    await expect(page.locator('[data-testid="trace-span"][data-kind="catalog"]')).toBeVisible();
    await expect(spans).toHaveCount(9);
    await expect(page.getByTestId("trace-count")).toHaveText("9");
    await page.getByRole("tab", { name: /^Console/ }).click();
    const helperLine = page.getByTestId("console-line").filter({ hasText: "helper says hi" });
    await expect(helperLine.getByTestId("console-from")).toHaveText("helper");
    const mainLine = page.getByTestId("console-line").filter({ hasText: "main line" });
    await expect(mainLine).toBeVisible();

    // Picking the helper's run shows its attributes and narrows the console to the helper's lines.
    await page.getByRole("tab", { name: /^Trace/ }).click();
    await page.locator('[data-testid="trace-span"][data-kind="run"]').nth(1).click();
    await expect(page.getByTestId("span-details")).toContainText("run helper");
    await page.getByRole("tab", { name: /^Console/ }).click();
    await expect(page.getByTestId("console-scoped")).toBeVisible();
    await expect(helperLine).toBeVisible();
    await expect(mainLine).toHaveCount(0);
    await page.getByTestId("console-scoped").getByRole("button", { name: "Show all" }).click();
    await expect(mainLine).toBeVisible();

    // Download as OTLP/JSON.
    await page.getByRole("tab", { name: /^Trace/ }).click();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download OTLP" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/\.otlp\.json$/);
    const otlp = JSON.parse(readFileSync((await download.path()) as string, "utf8")) as OtlpTrace;
    expect(otlp.resourceSpans[0]?.scopeSpans[0]?.spans).toHaveLength(9);

    // A called agent's span opens its record.
    await page.getByRole("button", { name: "Open the record of run helper" }).click();
    await expect(page.getByRole("button", { name: /back to/ })).toBeVisible();
    await expect(page.getByTestId("trace-span").first()).toContainText("run helper");
    await page.getByRole("button", { name: /back to/ }).click();

    // Save as test case: the run's input and result become a case, which passes.
    await page.getByRole("button", { name: "Save as test case" }).click();
    await expect(page.getByTestId("notice")).toContainText("Added a test case to gadget.tests.json");
    await expect(page.getByRole("tab", { name: "gadget.tests.json" })).toBeVisible();
    await page.getByRole("tab", { name: /^Tests/ }).click();
    const rows = page.getByTestId("test-row");
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText("case");
    await page.getByRole("button", { name: "Run tests" }).click();
    await expect(page.getByTestId("tests-summary")).toHaveText("1/1 passed");
    await expect(rows.first()).toHaveAttribute("data-status", "passed");

    // Edit the case to expect something else; the shortcut runs the tests, the diff shows why it fails.
    await replaceEditorText(
      page,
      `{ "tests": [ { "name": "case", "input": { "input": "hello" }, "expect": { "equals": "hello:43" } } ] }\n`,
    );
    await page.getByRole("tab", { name: /^Console/ }).click();
    await page.keyboard.press("ControlOrMeta+Shift+Enter");
    // The shortcut brings the Tests tab forward.
    await expect(page.getByRole("tab", { name: /^Tests/ })).toHaveAttribute("aria-selected", "true");
    await expect(rows.first()).toHaveAttribute("data-status", "failed");
    await expect(page.getByTestId("tests-summary")).toHaveText("0/1 passed");
    // A failing case shows its diff without a click.
    const diff = page.getByTestId("test-diff");
    await expect(diff).toContainText("equals");
    await expect(diff).toContainText('"hello:43"');
    await expect(diff).toContainText('"hello:42"');
    await page.screenshot({ path: testInfo.outputPath("tests-and-trace.png") });
    await testInfo.attach("tests-and-trace", {
      path: testInfo.outputPath("tests-and-trace.png"),
      contentType: "image/png",
    });

    // Publish refuses, asks, and publishes anyway when confirmed; the catalog says so.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    const asked = page.getByTestId("publish-tests-failed");
    await expect(asked).toContainText('1 of 1 test cases failed ("case")');
    await asked.getByRole("button", { name: "Publish anyway — recorded" }).click();
    await expect(page.getByTestId("notice")).toContainText("(tests overridden)");
    await page.getByTestId("publish-panel").getByRole("button", { name: "Close" }).click();
    await page.getByRole("button", { name: "Catalog", exact: true }).click();
    await expect(
      page.getByTestId("catalog-agent").filter({ hasText: "v1" }).getByTestId("agent-tests").filter({ hasText: "0/1" }),
    ).toContainText("published despite failures");
    await page.getByRole("button", { name: "Close" }).click();

    // The share page shows the tests and how they did.
    const draftId = (await page.evaluate(() => window.localStorage.getItem("workshop.activeDraft"))) ?? "";
    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
    let shareId: string;
    try {
      shareId = (await client.getSession().shareDraft(draftId, { input: "hello" })).shareId;
    } finally {
      client[Symbol.dispose]();
    }
    await page.goto(`/s/${shareId}`);
    await expect(page.getByTestId("shared-tests-summary")).toContainText("0/1 passed when shared");
    await expect(page.getByTestId("shared-test")).toContainText("✗case");
    expect(errors).toEqual([]);
  });

  test("a shared run record shows its trace beside the console, and a span filters it", async ({ page }) => {
    const errors = watchErrors(page);
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const token = await publishHelper(page);
    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
    let recordId: string;
    try {
      const session = client.getSession();
      const draft = await session.createDraft({
        files: [
          {
            path: "gadget.json",
            content: JSON.stringify({ name: "caller", entry: "index.ts", grants: { catalog: true } }),
          },
          { path: "index.ts", content: CALLER },
        ],
      });
      const outcome = await session.runDraft(draft.id, { input: "hey" });
      expect(outcome).toMatchObject({ status: "ok", result: "hey:42" });
      recordId = (await session.shareRun(outcome.runId)).recordId;
    } finally {
      client[Symbol.dispose]();
    }
    await page.goto(`/r/${recordId}`);
    const recorded = page.getByTestId("recorded-console");
    await expect(recorded.getByTestId("trace-span")).toHaveCount(9);
    await expect(recorded.getByTestId("console-line").filter({ hasText: "main line" })).toBeVisible();
    await recorded.locator('[data-testid="trace-span"][data-kind="catalog"]').click();
    await expect(recorded.getByTestId("console-line").filter({ hasText: "helper says hi" })).toBeVisible();
    await expect(recorded.getByTestId("console-line").filter({ hasText: "main line" })).toHaveCount(0);
    expect(errors).toEqual([]);
  });
});
