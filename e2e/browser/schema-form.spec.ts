import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, type Page } from "@playwright/test";
import { test } from "./fixtures.ts";

const INPUT_SCHEMA = {
  type: "object",
  required: ["city"],
  properties: {
    city: { type: "string", description: "Where to look <b>up</b>" },
    days: { type: "integer", default: 3 },
    units: { enum: ["metric", "imperial"] },
    detailed: { type: "boolean" },
    tags: { type: "array", items: { type: "string" } },
    where: { type: "object", properties: { lat: { type: "number" } } },
  },
};

const OUTPUT_SCHEMA = { type: "object", properties: { tempC: { type: "number" } } };

/** A draft whose gadget.json declares an input schema, opened in the page's IDE; `publish` makes it an agent too. */
async function openSchemaDraft(page: Page, publish = false): Promise<void> {
  await page.goto("/");
  await expect(page.getByTestId("connection")).toHaveText("connected");
  const token = await page.evaluate(() => window.localStorage.getItem("workshop.token"));
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: token ?? "" });
  let draftId: string;
  try {
    const draft = await client.getSession().createDraft({
      files: [
        {
          path: "gadget.json",
          content: JSON.stringify(
            { name: "weather", entry: "index.ts", inputSchema: INPUT_SCHEMA, outputSchema: OUTPUT_SCHEMA },
            null,
            2,
          ),
        },
        {
          path: "index.ts",
          content: "export default { async run({ city }: { city: string }) { return { tempC: 4, city }; } };\n",
        },
      ],
    });
    draftId = draft.id;
    if (publish) await client.getSession().publishDraft(draft.id);
  } finally {
    client[Symbol.dispose]();
  }
  // A first visit opens a starter draft of its own; it must be open before ours replaces it, or the
  // IDE's own choice could be stored after ours.
  await expect.poll(() => page.evaluate(() => window.localStorage.getItem("workshop.activeDraft"))).not.toBeNull();
  await page.evaluate((id) => window.localStorage.setItem("workshop.activeDraft", id), draftId);
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await expect(page.getByRole("navigation", { name: "Drafts" }).locator('[aria-current="true"]')).toContainText(
    "weather",
  );
}

const payloadJson = async (page: Page) => JSON.parse(await page.locator("#payload").inputValue());

test.describe("the payload form from gadget.json's inputSchema", () => {
  test("the form and the JSON edit the same payload, starting from the schema's defaults", async ({ page }) => {
    await openSchemaDraft(page);
    const form = page.getByRole("form", { name: "Payload form" });
    await expect(page.getByRole("tab", { name: "Form", exact: true })).toHaveAttribute("aria-selected", "true");
    // A new payload starts from the defaults; a description is shown as text.
    await expect.poll(() => payloadJson(page)).toEqual({ days: 3 });
    await expect(form).toContainText("Where to look <b>up</b>");
    await expect(form.locator("b")).toHaveCount(0);

    await form.getByLabel("city").fill("Oslo");
    await form.getByLabel("units").selectOption("imperial");
    await form.getByLabel("detailed").check();
    await form.getByLabel("tags").fill("sun, rain");
    await form.getByLabel("lat").fill("59.9");
    await expect
      .poll(() => payloadJson(page))
      .toEqual({
        days: 3,
        city: "Oslo",
        units: "imperial",
        detailed: true,
        tags: ["sun", "rain"],
        where: { lat: 59.9 },
      });

    // Edit the JSON: the form follows.
    await page.getByRole("tab", { name: "JSON", exact: true }).click();
    await page.locator("#payload").fill(JSON.stringify({ city: "Bergen", days: 4, tags: ["fog"] }));
    await page.getByRole("tab", { name: "Form", exact: true }).click();
    await expect(form.getByLabel("city")).toHaveValue("Bergen");
    await expect(form.getByLabel("days")).toHaveValue("4");
    await expect(form.getByLabel("tags")).toHaveValue("fog");
    await expect(form.getByLabel("units")).toHaveValue("");
    await expect(form.getByLabel("detailed")).not.toBeChecked();

    // A preset is a payload like any other: the form shows it too.
    page.once("dialog", (dialog) => void dialog.accept("bergen"));
    await page.getByRole("button", { name: "Save preset" }).click();
    await form.getByLabel("city").fill("Tromsø");
    await page.getByLabel("Payload presets").selectOption("bergen");
    await expect(form.getByLabel("city")).toHaveValue("Bergen");

    await page.keyboard.press("ControlOrMeta+Enter");
    await expect(page.getByTestId("run-result")).toContainText("Bergen");
  });

  test("a value the schema refuses is shown beside its field before running, and the run ends invalid", async ({
    page,
  }) => {
    await openSchemaDraft(page);
    const form = page.getByRole("form", { name: "Payload form" });
    await form.getByLabel("city").fill("Oslo");
    await expect(page.getByTestId("run-schema-warning")).toHaveCount(0);
    await form.getByLabel("days").fill("soon");
    const days = form.getByLabel("days");
    await expect(days).toHaveAttribute("aria-invalid", "true");
    await expect(form.getByTestId("schema-field-problem")).toHaveText(["$.days: expected integer"]);
    await expect.poll(() => payloadJson(page)).toEqual({ days: "soon", city: "Oslo" });
    // Leaving out a required property is named at that property's field.
    await form.getByLabel("city").fill("");
    await expect(form.getByTestId("schema-field-problem")).toHaveText([
      '$: missing required property "city"',
      "$.days: expected integer",
    ]);
    await expect(page.getByTestId("run-schema-warning")).toHaveText(/2 problems with the input schema/);
    await expect(page.getByTestId("run-button")).toHaveAttribute("title", /does not match gadget\.json's inputSchema/);
    // The JSON view lists the same problems.
    await page.getByRole("tab", { name: "JSON", exact: true }).click();
    await expect(page.getByTestId("schema-problems")).toContainText("$.days: expected integer");

    // Running sends it anyway: the Workshop refuses it before any code runs.
    await page.getByTestId("run-button").click();
    await expect(page.getByTestId("run-result")).toContainText("inputSchema");
    await expect(page.getByTestId("run-status")).toContainText(/invalid/i);
  });

  test("the tabs are reachable by keyboard", async ({ page }) => {
    await openSchemaDraft(page);
    await page.getByRole("tab", { name: "Form", exact: true }).focus();
    await page.keyboard.press("ArrowRight");
    await expect(page.getByRole("tab", { name: "JSON", exact: true })).toBeFocused();
    await expect(page.getByRole("tab", { name: "JSON", exact: true })).toHaveAttribute("aria-selected", "true");
    await expect(page.locator("#payload")).toBeVisible();
    await expect(page.getByRole("form", { name: "Payload form" })).toBeHidden();
  });

  test("the catalog shows each agent's input and output schemas, as types and as JSON Schema", async ({ page }) => {
    await openSchemaDraft(page, true);
    await page.getByRole("button", { name: "Catalog" }).click();
    const agent = page.getByTestId("catalog-agent").filter({ hasText: "weather" });
    const input = agent.getByTestId("agent-input-schema");
    await expect(input.locator("pre").first()).toContainText("city: string");
    await expect(input.locator("pre").first()).toContainText("days?: number");
    await expect(agent.getByTestId("agent-output-schema").locator("pre").first()).toContainText("tempC?: number");
    await input.getByText("input JSON Schema").click();
    await expect(input.locator("pre").nth(1)).toContainText('"required": [');
    await expect(input).toContainText("Where to look <b>up</b>");
    await expect(agent.locator("b")).toHaveCount(0);
  });
});
