import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, test } from "./fixtures.ts";

test.describe("Connect a client", () => {
  test("makes a key shown once, fills it into every snippet, lists it, and revokes it", async ({ page }) => {
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
    const origin = new URL(page.url()).origin;
    // The first visit's example takes the focus once, when its editor is ready: let it, before opening the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest(".monaco-editor") !== null)).toBe(true);

    const connect = page.getByRole("button", { name: "Connect", exact: true });
    await connect.click();
    const dialog = page.getByTestId("connect-dialog");
    await expect(dialog.getByTestId("mcp-url")).toHaveValue(`${origin}/mcp`);
    // Focus moved into the dialog, on the action it is for.
    const make = dialog.getByRole("button", { name: "Make a key for this client" });
    await expect(make).toBeFocused();
    await expect(dialog.getByTestId("client-snippet")).toHaveCount(5);
    await expect(dialog.getByTestId("client-snippet").first()).toContainText("<make a key above>");

    await dialog.getByLabel("Name").fill("e2e-client");
    await make.click();
    const keyField = dialog.getByTestId("new-key");
    await expect(keyField).toHaveValue(/^gk_[A-Za-z0-9_-]{65}$/);
    const key = await keyField.inputValue();
    await expect(dialog.getByRole("status")).toContainText("shown only this once");
    for (const snippet of await dialog.getByTestId("client-snippet").all()) await expect(snippet).toContainText(key);
    await expect(dialog.locator('[data-client="claude-code"]')).toContainText(
      `claude mcp add --transport http gadget-workshop '${origin}/mcp' --header 'Authorization: Bearer ${key}'`,
    );

    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    await dialog.getByRole("button", { name: "Copy the key" }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

    const listed = dialog.getByTestId("api-key").filter({ hasText: "e2e-client" });
    await expect(listed).toContainText("call: list and run published agents");
    await expect(listed).toContainText("all agents");
    await expect(listed).toContainText("never used");

    // Closed, the key is gone: not kept in the page, nor in localStorage; focus is back on Connect.
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(connect).toBeFocused();
    const stored = await page.evaluate(() => Object.values(window.localStorage).join("\n"));
    expect(stored).not.toContain(key);
    await connect.click();
    await expect(dialog.getByTestId("new-key")).toHaveCount(0);
    await expect(dialog.getByTestId("client-snippet").first()).not.toContainText(key);
    expect(await page.content()).not.toContain(key);

    // Revoke asks first, in the dialog; keeping it leaves it and returns focus.
    const revoke = listed.getByRole("button", { name: "Revoke e2e-client" });
    await revoke.click();
    await expect(listed.getByRole("button", { name: "Keep it" })).toBeFocused();
    await listed.getByRole("button", { name: "Keep it" }).click();
    await expect(revoke).toBeFocused();
    await revoke.click();
    await listed.getByRole("button", { name: "Revoke key" }).click();
    await expect(dialog.getByTestId("api-key").filter({ hasText: "e2e-client" })).toHaveCount(0);

    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
    try {
      expect((await client.getSession().listKeys()).map((info) => info.name)).not.toContain("e2e-client");
    } finally {
      client[Symbol.dispose]();
    }
  });
});
