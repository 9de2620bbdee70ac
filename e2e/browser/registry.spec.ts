import { randomBytes } from "node:crypto";
import { createRpcClient } from "@gadgets/workshop-shared";
import { startRegistry, type TestRegistry } from "../registry/registry-server.ts";
import { expect, newDraft, test } from "./fixtures.ts";

/**
 * The workspace's npm registry in the IDE (Dependencies → Package registry…): a private registry of the
 * test's own is set with its token, which the dialog then only says is kept — the token is in no page
 * text, field, localStorage or answer the page received — and the Workshop resolves from it with that
 * token; bad URLs are refused in words; Reset goes back to the Workshop's default.
 */

let registry: TestRegistry;
// A name only the private registry has: finding it proves the kept token reaches that registry.
const privateName = `fx-private-${randomBytes(6).toString("hex")}`;

test.beforeAll(async () => {
  registry = await startRegistry({ private: true });
  const packageJson = { name: privateName, version: "1.2.3", type: "module", exports: "./index.js" };
  await registry.publish({
    packageJson,
    entries: [
      { type: "file", name: "package/package.json", content: JSON.stringify(packageJson) },
      { type: "file", name: "package/index.js", content: "export const secret = false;\n" },
    ],
  });
});

test.afterAll(async () => {
  await registry?.stop();
});

test("sets a private registry with its token (kept, never shown), refuses bad URLs in words, resets to the default", async ({
  page,
}) => {
  const token = registry.token ?? "";
  expect(token).not.toBe("");
  // Every answer the page receives: the RPC frames over the WebSocket and every HTTP response body.
  const answers: string[] = [];
  const reading: Promise<void>[] = [];
  page.on("websocket", (socket) => socket.on("framereceived", (frame) => answers.push(String(frame.payload))));
  page.on("response", (response) => {
    reading.push(
      response.body().then(
        (body) => void answers.push(body.toString("latin1")),
        // A redirect or an upgraded socket has no body to read.
        () => undefined,
      ),
    );
  });

  await newDraft(page, "Echo");
  const open = page.getByRole("button", { name: "Package registry…" });
  await open.click();
  const dialog = page.getByTestId("registry-dialog");
  const suiteRegistry = (JSON.parse(process.env.WORKSHOP_E2E_REGISTRY ?? "") as { url: string }).url;
  await expect(dialog.getByTestId("registry-url")).toHaveText(new URL(suiteRegistry).href);
  await expect(dialog.getByTestId("registry-setting")).toHaveText("the Workshop's default");
  await expect(dialog.getByTestId("registry-token")).toHaveText("none");
  const url = dialog.getByLabel("URL");
  await expect(url).toBeFocused();
  const field = dialog.getByLabel("Token");
  await expect(field).toHaveAttribute("type", "password");
  const save = dialog.getByRole("button", { name: "Save registry" });

  // Refused in words: not a URL (checked here), not https (the Workshop's own answer).
  await url.fill("npm.example.com");
  await save.click();
  await expect(dialog.getByRole("alert")).toHaveText(
    'The registry must be a URL like "https://registry.example.com/".',
  );
  await url.fill("http://npm.example.com/");
  await save.click();
  await expect(dialog.getByRole("alert")).toContainText("http://npm.example.com is not an https URL");
  await expect(dialog.getByTestId("registry-setting")).toHaveText("the Workshop's default");

  await url.fill(registry.url);
  await field.fill(token);
  await save.click();
  await expect(dialog.getByRole("status")).toContainText("Its token is kept and never shown again.");
  await expect(dialog.getByRole("alert")).toHaveCount(0);
  await expect(field).toHaveValue("");
  await expect(dialog.getByTestId("registry-url")).toHaveText(new URL(registry.url).href);
  await expect(dialog.getByTestId("registry-setting")).toHaveText("this workspace's own");
  await expect(dialog.getByTestId("registry-token")).toHaveText("kept (never shown)");

  // Closed and opened again (asked again of the Workshop): the same, the token field empty.
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
  await expect(open).toBeFocused();
  await page.reload();
  await expect(page.getByTestId("connection")).toHaveText("connected");
  await open.click();
  await expect(dialog.getByTestId("registry-token")).toHaveText("kept (never shown)");
  await expect(dialog.getByLabel("Token")).toHaveValue("");

  // The Workshop resolves from that registry with the kept token.
  const workspaceToken = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
  const client = createRpcClient({ url: process.env.WORKSHOP_E2E_URL, token: workspaceToken });
  try {
    const session = client.getSession();
    expect(await session.getRegistry()).toEqual({ url: new URL(registry.url).href, isDefault: false, hasToken: true });
    expect(await session.lookupPackage(privateName)).toMatchObject({ name: privateName, version: "1.2.3" });
  } finally {
    client[Symbol.dispose]();
  }

  // The token is nowhere the page can read: its text, its fields, localStorage, any answer it received.
  expect(await page.content()).not.toContain(token);
  const inputs = await page.evaluate(() =>
    [...document.querySelectorAll("input, textarea")].map((input) => (input as HTMLInputElement).value).join("\n"),
  );
  expect(inputs).not.toContain(token);
  expect(await page.evaluate(() => Object.values(window.localStorage).join("\n"))).not.toContain(token);
  await Promise.all(reading);
  // The watch saw the RPC answers: getRegistry's carries the registry's address.
  expect(answers.some((answer) => answer.includes(new URL(registry.url).host))).toBe(true);
  expect(answers.filter((answer) => answer.includes(token))).toEqual([]);

  // Reset asks first, in place; then the Workshop's default again, with no token.
  const current = dialog.getByTestId("registry-current");
  await current.getByRole("button", { name: "Reset to the Workshop's default registry" }).click();
  await current.getByRole("button", { name: "Keep it" }).click();
  await expect(dialog.getByTestId("registry-setting")).toHaveText("this workspace's own");
  await current.getByRole("button", { name: "Reset to the Workshop's default registry" }).click();
  await current.getByRole("button", { name: "Use the default" }).click();
  await expect(dialog.getByRole("status")).toContainText("Back to the Workshop's default registry");
  await expect(dialog.getByTestId("registry-setting")).toHaveText("the Workshop's default");
  await expect(dialog.getByTestId("registry-token")).toHaveText("none");
  await expect(url).toBeFocused();
});
