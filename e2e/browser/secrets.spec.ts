import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, newDraft, test } from "./fixtures.ts";

test.describe("Secrets in the IDE", () => {
  test("grants a secret, sets it in the panel (listed with its size, the value nowhere in the page), deletes it", async ({
    page,
  }) => {
    const value = `browser-secret-${Math.random().toString(36).slice(2)}`;
    await newDraft(page, "Echo");
    const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";

    // Granted in the Grants panel first: it is listed there as not set yet.
    await page.getByLabel("Secrets this gadget may read").fill("E2E_TOKEN");
    const granted = page.getByTestId("granted-secrets");
    await expect(granted).toContainText("E2E_TOKEN → env.secrets.E2E_TOKEN (not set in this workspace)");
    await expect(page.getByTestId("save-state")).toContainText("saved");

    const manage = page.getByRole("button", { name: "Manage secrets…" });
    await manage.click();
    const dialog = page.getByTestId("secrets-dialog");
    // The name not set yet is offered, and focus is on it.
    const name = dialog.getByLabel("Name");
    await expect(name).toBeFocused();
    await expect(name).toHaveValue("E2E_TOKEN");
    const field = dialog.getByLabel("Value");
    await expect(field).toHaveAttribute("type", "password");
    await field.fill("short");
    await dialog.getByRole("button", { name: "Set secret" }).click();
    await expect(dialog.getByRole("alert")).toContainText("this one is 5");
    await field.fill(value);
    await dialog.getByRole("button", { name: "Set secret" }).click();
    await expect(dialog.getByRole("status")).toContainText(`E2E_TOKEN is set (${value.length} bytes)`);
    await expect(field).toHaveValue("");

    const listed = dialog.getByTestId("secret").filter({ hasText: "E2E_TOKEN" });
    await expect(listed).toContainText(`${value.length} bytes`);
    await expect(listed).toContainText("no published agent uses it");
    await expect(granted).not.toContainText("not set");

    // The value is nowhere: not in the page, its inputs, or localStorage.
    expect(await page.content()).not.toContain(value);
    const inputs = await page.evaluate(() =>
      [...document.querySelectorAll("input, textarea")].map((input) => (input as HTMLInputElement).value).join("\n"),
    );
    expect(inputs).not.toContain(value);
    expect(await page.evaluate(() => Object.values(window.localStorage).join("\n"))).not.toContain(value);

    // Delete asks first, in place; keeping it leaves it.
    await listed.getByRole("button", { name: "Delete E2E_TOKEN" }).click();
    await listed.getByRole("button", { name: "Keep it" }).click();
    await expect(listed).toHaveCount(1);
    await listed.getByRole("button", { name: "Delete E2E_TOKEN" }).click();
    await listed.getByRole("button", { name: "Delete secret" }).click();
    await expect(dialog.getByTestId("secret")).toHaveCount(0);
    await page.keyboard.press("Escape");
    await expect(dialog).toHaveCount(0);
    await expect(manage).toBeFocused();
    await expect(granted).toContainText("not set in this workspace");

    const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token });
    try {
      expect(await client.getSession().listSecrets()).toEqual([]);
    } finally {
      client[Symbol.dispose]();
    }
  });
});
