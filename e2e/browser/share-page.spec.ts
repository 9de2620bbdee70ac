import { gadgetFiles, withWorkspace } from "./api-helpers.ts";
import { expect, test } from "./fixtures.ts";

const SLOW = `export default {
  async run(payload: { input: string }, env: GadgetEnv) {
    console.log("started", payload.input);
    await new Promise((resolve) => setTimeout(resolve, 1900));
    return "not cancelled";
  },
};
`;

test.describe("the shared gadget page", () => {
  test("a shared run can be cancelled; the code says it is read-only; no preset controls", async ({ page }) => {
    const shareId = await withWorkspace(async (session) => {
      const draft = await session.createDraft({ files: gadgetFiles("slow", SLOW) });
      return (await session.shareDraft(draft.id, { input: "x" })).shareId;
    });
    await page.goto(`/s/${shareId}`);
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("started");
    await expect(page.getByRole("button", { name: "Save preset" })).toHaveCount(0);
    await expect(page.getByLabel("Payload presets")).toHaveCount(0);
    // The template's own `env: GadgetEnv` is no error here.
    await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);

    // Typing into the code tells the reader why nothing happens, and what to do.
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.type("x");
    await expect(page.locator(".monaco-editor-overlaymessage")).toContainText("Fork it to edit");

    await page.getByRole("button", { name: "Run" }).click();
    await expect(page.getByTestId("console-line").filter({ hasText: "started" })).toBeVisible();
    await page.getByRole("button", { name: "Cancel" }).click();
    await expect(page.getByTestId("run-status")).toHaveText("✗ cancelled");
    await expect(page.getByTestId("run-result")).toContainText("The run was cancelled");
  });

  test("a run record shows the queue, build and run timings", async ({ page }) => {
    const recordId = await withWorkspace(async (session) => {
      const draft = await session.createDraft({
        files: gadgetFiles("timed", `export default { async run() { console.log("hi"); return 1; } };`),
      });
      const outcome = await session.runDraft(draft.id, null);
      return (await session.shareRun(outcome.runId)).recordId;
    });
    await page.goto(`/r/${recordId}`);
    const timings = page.getByTestId("recorded-timings");
    await expect(timings).toContainText(/queue \d+ ms · build \d+ ms · run \d+ ms · total \d+ ms/);
    await page.getByRole("button", { name: "Run again" }).click();
    await expect(page.getByTestId("again-timings")).toContainText(/queue \d+ ms · build \d+ ms · run \d+ ms/);
  });
});
