import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, test } from "./fixtures.ts";

test.describe("storage use", () => {
  test("the drafts panel shows the workspace's storage against its quota, and it grows with the workspace", async ({
    page,
  }) => {
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(message.text());
    });
    page.on("pageerror", (error) => problems.push(error.message));
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const usage = page.getByTestId("storage-usage");
    await expect(usage).toHaveText("Storage: 0.0 KB of 64.0 MB");
    // The same workspace, written from a backend: the IDE shows the new use when it next asks.
    const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
    using client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
    const files = [
      { path: "gadget.json", content: JSON.stringify({ name: "sized", entry: "index.ts" }) },
      { path: "index.ts", content: `export default { async run() { return ${JSON.stringify("z".repeat(3000))}; } };` },
    ];
    await client.getSession().createDraft({ files });
    await page.reload();
    await expect(usage).toHaveText("Storage: 3.1 KB of 64.0 MB");
    await expect(usage).toHaveAttribute("title", /^drafts 3\.1 KB, published versions 0\.0 KB/);
    await expect(page.getByRole("button", { name: /sized/ })).toBeVisible();
    expect(problems).toEqual([]);
  });
});
