import { expect, newDraft, replaceEditorText, test } from "./fixtures.ts";
import type { Locator } from "@playwright/test";

const GADGET = `export default {
  async run() {
    console.group("outer");
    console.log("one in");
    console.groupCollapsed("inner");
    console.log("two in");
    console.groupEnd();
    console.table([{ name: "ada", age: 36 }, { name: "<b>alan</b>" }, 7]);
    console.groupEnd();
    console.log("top");
    return "grouped";
  },
};
`;

/** Where a console line's text starts on screen. */
async function textLeft(console: Locator, text: string): Promise<number> {
  const box = await console
    .getByTestId("console-line")
    .filter({ hasText: text })
    .getByText(text, { exact: true })
    .boundingBox();
  if (!box) throw new Error(`no line "${text}" on screen`);
  return box.x;
}

async function expectGroupsAndTable(console: Locator) {
  const line = (text: string) => console.getByTestId("console-line").filter({ hasText: text });
  await expect(line("one in")).toHaveAttribute("data-depth", "1");
  // Each level sits further right than the one around it.
  const top = await textLeft(console, "top");
  const outer = await textLeft(console, "outer");
  const oneIn = await textLeft(console, "one in");
  expect(outer).toBeGreaterThan(top);
  expect(oneIn).toBeGreaterThan(outer);

  // The table: index, the union of the rows' keys, and Values for the row that is not an object; user
  // text shown as text.
  const table = console.getByTestId("console-table");
  await expect(table.locator("th")).toHaveText(["(index)", "name", "age", "Values"]);
  await expect(table.locator("tbody tr").nth(0).locator("td")).toHaveText(["0", '"ada"', "36", ""]);
  await expect(table.locator("tbody tr").nth(1).locator("td")).toHaveText(["1", '"<b>alan</b>"', "", ""]);
  await expect(table.locator("tbody tr").nth(2).locator("td")).toHaveText(["2", "", "", "7"]);
  await expect(table.locator("b")).toHaveCount(0);
  expect((await table.boundingBox())?.x ?? 0).toBeGreaterThan(outer);

  // groupCollapsed starts closed; its label opens it. Closing the outer group hides all it holds.
  await expect(line("two in")).toHaveCount(0);
  const inner = line("inner").getByTestId("console-group");
  await expect(inner).toHaveAttribute("aria-expanded", "false");
  await inner.click();
  await expect(line("two in")).toHaveAttribute("data-depth", "2");
  expect(await textLeft(console, "two in")).toBeGreaterThan(oneIn);
  await line("outer").getByTestId("console-group").click();
  await expect(line("one in")).toHaveCount(0);
  await expect(line("two in")).toHaveCount(0);
  await expect(table).toHaveCount(0);
  await expect(line("top")).toBeVisible();
  await line("outer").getByTestId("console-group").click();
  await expect(line("one in")).toBeVisible();
}

test("console groups nest and fold, and console.table shows a table, in the IDE and on the run's page", async ({
  page,
  browser,
}) => {
  await newDraft(page, "Echo");
  await replaceEditorText(page, GADGET);
  await page.keyboard.press("ControlOrMeta+Enter");
  await expect(page.getByTestId("run-result")).toContainText("grouped");
  await expectGroupsAndTable(page.getByTestId("console"));

  await page.getByRole("button", { name: "Share run" }).click();
  await expect(page.getByTestId("notice")).toContainText("/r/");
  const link =
    /Link: (http\S+?\/r\/[A-Za-z0-9_-]{22})/.exec((await page.getByTestId("notice").textContent()) ?? "")?.[1] ?? "";
  const visitor = await browser.newContext();
  const visit = await visitor.newPage();
  await visit.goto(link);
  await expectGroupsAndTable(visit.getByTestId("recorded-console"));
  await visitor.close();
});
