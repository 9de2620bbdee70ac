import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { gadgetFiles, withWorkspace } from "./api-helpers.ts";
import { expect, newDraft, test } from "./fixtures.ts";

const ECHO = `export default {\n  async run({ input }: { input: string }) {\n    console.log("embedded got", input);\n    return "Echo: " + input;\n  },\n};\n`;

/** A shared echo gadget (or other code), made through the API as a backend would. */
function shareEcho(code = ECHO): Promise<string> {
  return withWorkspace(async (session) => {
    const draft = await session.createDraft({ files: gadgetFiles("embedded-echo", code) });
    return (await session.shareDraft(draft.id, { input: "default" })).shareId;
  });
}

/** A host page on another origin (another port), with the shipped host helper bundled for the browser. */
async function startHost(): Promise<{ origin: string; server: Server }> {
  const helper = await build({
    entryPoints: [fileURLToPath(new URL("../../packages/workshop-shared/src/embed.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    write: false,
    platform: "browser",
  });
  const script = helper.outputFiles[0]?.text ?? "";
  const server = createServer((request, response) => {
    if (request.url === "/embed-client.js") {
      response.writeHead(200, { "content-type": "text/javascript" });
      response.end(script);
      return;
    }
    response.writeHead(200, { "content-type": "text/html" });
    response.end(
      `<!doctype html><html><head><link rel="icon" href="data:,"></head><body><iframe id="embed" width="800" height="400"></iframe></body></html>`,
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

test.describe("the embeddable playground", () => {
  test("a host page on another origin drives the embed through the host API and receives its events", async ({
    page,
  }) => {
    const shareId = await shareEcho();
    const host = await startHost();
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      const result = await page.evaluate(
        async ({ src, origin }) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          iframe.src = src;
          const { connectEmbed } = (await import(
            "/embed-client.js" as string
          )) as typeof import("../../packages/workshop-shared/src/embed.ts");
          const api = await connectEmbed(iframe, { origin });
          const events: string[] = [];
          await api.onRunEvent((event) => {
            events.push(event.type);
          });
          const files = await api.getFiles();
          await api.setFiles(
            files.map((file) =>
              file.path === "index.ts" ? { ...file, content: file.content.replace('"Echo: "', '"Hosted: "') } : file,
            ),
          );
          const outcome = await api.run({ input: "from the host" });
          await new Promise((resolve) => setTimeout(resolve, 200));
          return { outcome, events, paths: files.map((file) => file.path) };
        },
        { src: `${workshop}/embed/${shareId}?host=${encodeURIComponent(host.origin)}`, origin: workshop },
      );
      expect(result.paths).toEqual(["gadget.json", "index.ts"]);
      expect(result.outcome).toMatchObject({ status: "ok", result: "Hosted: from the host" });
      expect(result.events).toContain("log");
      expect(result.events.at(-1)).toBe("end");
      await expect(
        page.frameLocator("#embed").getByTestId("console-line").filter({ hasText: "embedded got from the host" }),
      ).toBeVisible();
    } finally {
      host.server.close();
    }
  });

  test("a host page may connect again, and late: each connection is served", async ({ page }) => {
    const shareId = await shareEcho();
    const host = await startHost();
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      const paths = await page.evaluate(
        async ({ src, origin }) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          iframe.src = src;
          const { connectEmbed } = (await import(
            "/embed-client.js" as string
          )) as typeof import("../../packages/workshop-shared/src/embed.ts");
          // Twice at once (a component mounted twice), then once more after the embed stopped announcing itself.
          const [first, second] = await Promise.all([
            connectEmbed(iframe, { origin }),
            connectEmbed(iframe, { origin }),
          ]);
          await new Promise((resolve) => setTimeout(resolve, 1500));
          const late = await connectEmbed(iframe, { origin, timeoutMs: 5000 });
          return Promise.all([first, second, late].map(async (api) => (await api.getFiles()).length));
        },
        { src: `${workshop}/embed/${shareId}?host=${encodeURIComponent(host.origin)}`, origin: workshop },
      );
      expect(paths).toEqual([2, 2, 2]);
    } finally {
      host.server.close();
    }
  });

  test("ignores a handshake from an origin other than the one the embed names", async ({ page }) => {
    const shareId = await shareEcho();
    const host = await startHost();
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      const error = await page.evaluate(
        async ({ src, origin }) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          iframe.src = src;
          const { connectEmbed } = (await import(
            "/embed-client.js" as string
          )) as typeof import("../../packages/workshop-shared/src/embed.ts");
          try {
            await connectEmbed(iframe, { origin, timeoutMs: 3000 });
            return "connected";
          } catch (e) {
            return (e as Error).message;
          }
        },
        { src: `${workshop}/embed/${shareId}?host=${encodeURIComponent("http://127.0.0.1:1")}`, origin: workshop },
      );
      expect(error).toContain("did not answer");
    } finally {
      host.server.close();
    }
  });

  test("an embed naming another host posts nothing to its parent: no postMessage complaints in the console", async ({
    page,
  }) => {
    const shareId = await shareEcho();
    const host = await startHost();
    // Every console message of every frame, whatever its level (Chromium logs the refused target as an error).
    const messages: string[] = [];
    page.on("console", (message) => messages.push(`${message.type()}: ${message.text()}`));
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      await page.evaluate(
        (src) => {
          (document.getElementById("embed") as HTMLIFrameElement).src = src;
        },
        `${workshop}/embed/${shareId}?host=${encodeURIComponent("http://127.0.0.1:1")}`,
      );
      await expect(page.frameLocator("#embed").getByTestId("embed-code")).toContainText("embedded got");
      // Past a few of the embed's announcements (one every 500 ms).
      await page.waitForTimeout(1600);
      expect(messages.filter((text) => /postMessage|target origin/i.test(text))).toEqual([]);
    } finally {
      host.server.close();
    }
  });

  test("click-to-load fetches no Monaco, opens no session and runs nothing before the click", async ({
    page,
    requests,
  }) => {
    const shareId = await shareEcho();
    const response = await page.goto(`/embed/${shareId}?ctl=1&autorun=1`);
    expect(response?.headers()["content-security-policy"]).toContain("frame-ancestors *");
    await expect(page.getByRole("button", { name: /Click to load/ })).toBeVisible();
    await page.waitForTimeout(500);
    const before = [...requests];
    expect(before.filter((url) => /\/api|editor\.api|ts\.worker|monaco/.test(url))).toEqual([]);
    await page.getByRole("button", { name: /Click to load/ }).click();
    await expect(page.getByTestId("embed-outcome")).toContainText("Echo: default");
    await expect(page.getByTestId("embed-code")).toContainText("embedded got");
    // First paint is highlighted text: Monaco is still not loaded until the reader edits.
    expect(requests.filter((url) => /editor\.api/.test(url))).toEqual([]);
    await page.getByRole("button", { name: "Edit" }).click();
    await expect(page.locator(".monaco-editor").first()).toBeVisible();
  });

  test("the first paint highlights the code as text: markup in it stays characters", async ({ page }) => {
    const hostile = `// </pre><script>window.hit = 1</script>\nexport default {\n  async run() {\n    return "<img src=x onerror=\\"window.hit = 2\\">";\n  },\n};\n`;
    await page.goto(`/embed/${await shareEcho(hostile)}`);
    const code = page.getByTestId("embed-code");
    await expect(code).toHaveText(hostile);
    await expect(code.locator("img, script")).toHaveCount(0);
    await expect(code.locator("span", { hasText: /^export$/ })).toHaveClass(/violet/);
    await expect(code.locator("span", { hasText: /^\/\/ <\/pre>/ })).toHaveClass(/italic/);
    expect(await page.evaluate(() => (window as { hit?: number }).hit)).toBeUndefined();
  });

  test("IDE pages refuse to be framed; unknown embeds show not found", async ({
    page,
    request,
    allowConsoleErrors,
  }) => {
    // The browser reports the refused frame and the 404 it was asked to provoke.
    allowConsoleErrors(/frame-ancestors 'none'/, /status of 404/);
    const ide = await request.get("/");
    expect(ide.headers()["x-frame-options"]).toBe("DENY");
    expect(ide.headers()["content-security-policy"]).toContain("frame-ancestors 'none'");
    const host = await startHost();
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      await page.evaluate((src) => {
        (document.getElementById("embed") as HTMLIFrameElement).src = src;
      }, `${workshop}/`);
      await page.waitForTimeout(1000);
      await expect(page.frameLocator("#embed").getByTestId("connection")).toHaveCount(0);
    } finally {
      host.server.close();
    }
    for (const path of ["/embed/AAAAAAAAAAAAAAAAAAAAAA", "/embed/%"]) {
      const missing = await page.goto(path);
      expect(missing?.status(), path).toBe(404);
      await expect(page.getByTestId("not-found")).toBeVisible();
    }
  });

  test("the share dialog builds the iframe snippet and previews it", async ({ page }) => {
    await page.goto("/");
    await page.getByLabel("New draft from a template").selectOption({ label: "Echo" });
    await expect(page.locator(".monaco-editor").first()).toBeVisible();
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByTestId("share-dialog");
    await expect(dialog).toBeVisible();
    await dialog.getByLabel("theme").selectOption("dark");
    await dialog.getByLabel("click to load").check();
    await expect(page.getByTestId("embed-snippet")).toHaveValue(
      /<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\/[A-Za-z0-9_-]{22}\?theme=dark&amp;ctl=1"|<iframe src="http:\/\/127\.0\.0\.1:\d+\/embed\/[A-Za-z0-9_-]{22}\?theme=dark&ctl=1"/,
    );
    await expect(
      page.frameLocator('iframe[title="Embed preview"]').getByRole("button", { name: /Click to load/ }),
    ).toBeVisible();
  });

  test("the embed's editor knows the env types: the template's own code has no error", async ({ page }) => {
    const template = `export default {\n  async run(payload: { input: string }, env: GadgetEnv) {\n    console.log("got", payload);\n    return \`Echo: \${payload.input}\`;\n  },\n};\n`;
    const shareId = await withWorkspace(async (session) => {
      const draft = await session.createDraft({ files: gadgetFiles("typed", template) });
      return (await session.shareDraft(draft.id, { input: "hi" })).shareId;
    });
    await page.goto(`/embed/${shareId}`);
    await page.getByRole("button", { name: "Edit" }).click();
    await expect(page.locator(".monaco-editor .view-lines").first()).toContainText("GadgetEnv");
    // Hover on GadgetEnv: the type is known (the language service has the env types)…
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("Control+G");
    await page.keyboard.type(`2:${(template.split("\n")[1] ?? "").indexOf("GadgetEnv") + 2}`);
    await page.keyboard.press("Enter");
    await page.keyboard.press("ControlOrMeta+K");
    await page.keyboard.press("ControlOrMeta+I");
    await expect(page.locator(".monaco-editor .monaco-hover").first()).toContainText("interface GadgetEnv");
    // …so nothing in the template is marked as an error.
    await expect(page.locator(".monaco-editor .squiggly-error")).toHaveCount(0);
  });

  test("with click-to-load the host API's handshake is answered before the click, loading nothing", async ({
    page,
    requests,
  }) => {
    const shareId = await shareEcho();
    const host = await startHost();
    try {
      await page.goto(host.origin);
      const workshop = process.env.WORKSHOP_E2E_URL ?? "";
      await page.evaluate(
        async ({ src, origin }) => {
          const iframe = document.getElementById("embed") as HTMLIFrameElement;
          iframe.src = src;
          const { connectEmbed } = (await import(
            "/embed-client.js" as string
          )) as typeof import("../../packages/workshop-shared/src/embed.ts");
          (window as unknown as { embedApi: unknown }).embedApi = await connectEmbed(iframe, {
            origin,
            timeoutMs: 10_000,
          });
        },
        { src: `${workshop}/embed/${shareId}?ctl=1`, origin: workshop },
      );
      // Connected, and still nothing heavy loaded, no session opened, the click target still shown.
      await expect(page.frameLocator("#embed").getByRole("button", { name: /Click to load/ })).toBeVisible();
      expect(requests.filter((url) => /\/api|editor\.api|ts\.worker|monaco/.test(url))).toEqual([]);
      // The host's first call loads the embed, as a click would.
      const paths = await page.evaluate(async () => {
        const api = (window as unknown as { embedApi: { getFiles(): Promise<{ path: string }[]> } }).embedApi;
        return (await api.getFiles()).map((file) => file.path);
      });
      expect(paths).toEqual(["gadget.json", "index.ts"]);
      await expect(page.frameLocator("#embed").getByTestId("embed-code")).toContainText("embedded got");
    } finally {
      host.server.close();
    }
  });

  test("the share dialog takes the host origin for the snippet, and says what is wrong with a bad one", async ({
    page,
  }) => {
    await newDraft(page, "Echo");
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const dialog = page.getByTestId("share-dialog");
    const hostField = dialog.getByLabel("host", { exact: true });
    await hostField.fill("https://blog.example.com/some/post");
    await expect(page.getByTestId("embed-snippet")).toHaveValue(/host=https%3A%2F%2Fblog\.example\.com"/);
    await hostField.fill("javascript:alert(1)");
    await expect(dialog.getByRole("note")).toContainText("is not a web origin");
    await expect(page.getByTestId("embed-snippet")).not.toHaveValue(/host=/);
  });
});
