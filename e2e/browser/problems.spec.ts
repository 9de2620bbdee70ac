import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";

test("the Problems view groups failures, jumps to the line, links the run, and shows new ones without a reload", async ({
  page,
  context,
}) => {
  await newDraft(page, "Echo");
  await replaceEditorText(
    page,
    `function check(input: string) {\n  throw new TypeError("no widget named " + input);\n}\nexport default {\n  async run(payload: { input: string }) {\n    return check(payload.input);\n  },\n};\n`,
  );
  await expect(page.getByTestId("save-state")).toContainText("saved #2");
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("console-end")).toHaveCount(1);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("console-end")).toHaveCount(2);
  await expect(page.getByTestId("run-status")).toContainText("✗ threw");

  // It announces itself on the tab.
  const tab = page.getByTestId("problems-tab");
  await expect(tab).toContainText("1 new");
  await tab.click();
  const problem = page.getByTestId("problem").filter({ hasText: "no widget named" });
  await expect(problem).toContainText("TypeError");
  await expect(problem.getByTestId("problem-count")).toHaveText("×2");
  await expect(problem.getByTestId("problem-gadget")).toContainText(/echo-\w+ saved #2/);
  await expect(problem).toContainText(/first \d+ s ago/);
  await expect(problem).toContainText(/last \d+ s ago/);
  // Looking at it marks it seen.
  await expect(tab).not.toContainText("new");

  // The mapped stack: click a frame to open the line.
  await problem.getByRole("button", { name: /Open index\.ts at line 2/ }).click();
  await expect
    .poll(() =>
      page.evaluate(() => document.querySelector(".monaco-editor .line-numbers.active-line-number")?.textContent),
    )
    .toBe("2");

  // The last run opens in the Runs dialog, privately: no public link is made for it.
  const pages = context.pages().length;
  await problem.getByRole("button", { name: "open the last run" }).click();
  const runs = page.getByTestId("runs-dialog");
  await expect(runs.getByTestId("run-outcome")).toContainText("no widget named");
  expect(context.pages()).toHaveLength(pages);
  await runs.getByRole("button", { name: "Close" }).click();

  // A failure from elsewhere (a backend run) shows up without a reload.
  await page.getByRole("tab", { name: /Console/ }).click();
  const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
  try {
    const session = client.getSession();
    const draft = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "backend-job", entry: "index.ts" }) },
        { path: "index.ts", content: `export default { async run() { throw new RangeError("out of range"); } };` },
      ],
    });
    await session.runDraft(draft.id, null);
  } finally {
    client[Symbol.dispose]();
  }
  await expect(tab).toContainText("1 new");
  await tab.click();
  await expect(page.getByTestId("problem").filter({ hasText: "out of range" })).toContainText("backend-job saved #1");
});
