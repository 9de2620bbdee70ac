import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, test } from "./fixtures.ts";

/** A "full" gadget answering an HTML page whose script would read the visitor's localStorage. */
const PAGE_GADGET = `export default {
  async run() {
    return {
      status: 200,
      headers: { "content-type": "text/html; charset=utf-8" },
      body: \`<!doctype html><title>gadget page</title>
<p id="out">script did not run</p>
<script>
  let seen;
  try { seen = "token: " + localStorage.getItem("workshop.token"); } catch (error) { seen = "refused: " + error.name; }
  document.getElementById("out").textContent = seen;
</script>\`,
    };
  },
};
`;

test.describe("HTTP endpoints in a browser", () => {
  test("a gadget's page from its endpoint cannot read the IDE's storage: another origin, sandboxed", async ({
    page,
    allowConsoleErrors,
  }) => {
    // The sandbox (no allow-scripts) stops the page's script, and Chromium says so on the console.
    allowConsoleErrors(/Blocked script execution/);
    await page.goto("/");
    await expect(page.getByTestId("connection")).toHaveText("connected");
    const token = (await page.evaluate(() => window.localStorage.getItem("workshop.token"))) ?? "";
    expect(token).toMatch(/^gw_/);
    const ideOrigin = new URL(page.url()).origin;

    // The page's own workspace publishes it: the one whose token the IDE's origin holds.
    using client = createRpcClient({ url: ideOrigin, token });
    const session = client.getSession();
    const draft = await session.createDraft({
      files: [
        {
          path: "gadget.json",
          content: JSON.stringify({ name: "html-page", entry: "index.ts", triggers: { http: { response: "full" } } }),
        },
        { path: "index.ts", content: PAGE_GADGET },
      ],
    });
    const { endpointUrl } = await session.publishDraft(draft.id);
    expect(endpointUrl).toBeTruthy();
    expect(new URL(endpointUrl ?? "").origin).not.toBe(ideOrigin);

    const response = await page.goto(endpointUrl ?? "");
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toBe("sandbox");
    await expect(page).toHaveTitle("gadget page");
    // Its script never ran, so it read nothing.
    await expect(page.locator("#out")).toHaveText("script did not run");
    // And even script in that document (as the browser's own tools run it) has an opaque origin and no storage.
    expect(await page.evaluate(() => window.origin)).toBe("null");
    expect(
      await page.evaluate(() => {
        try {
          return `read ${window.localStorage.getItem("workshop.token")}`;
        } catch (error) {
          return (error as Error).name;
        }
      }),
    ).toBe("SecurityError");
    expect(
      await page.evaluate(() => {
        try {
          return `read ${document.cookie}`;
        } catch (error) {
          return (error as Error).name;
        }
      }),
    ).toBe("SecurityError");
  });
});
