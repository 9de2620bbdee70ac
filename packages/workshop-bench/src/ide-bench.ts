/**
 * The IDE's own figures, in real Chromium: page load to an editable editor, Ctrl+Enter to the first
 * console line (timed inside the page), and what the build ships.
 */

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { findChromium } from "@gadgets/workshop-host/chromium";
import { chromium } from "@playwright/test";
import { type Summary, summarize } from "./stats.ts";

export interface IdeFigures {
  loadToEditable: Summary;
  runToFirstLine: Summary;
  /** JavaScript an embed ships before the reader's first click (`ctl`): raw, gzip, and as sent (compressed). */
  embedBeforeClick: { bytes: number; gzip: number; sent: number; files: number };
  bundles: { name: string; bytes: number; gzip: number }[];
}

const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--no-first-run",
  "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
];

export async function measureIde(url: string, distDir: string, samples: number): Promise<IdeFigures> {
  const found = await findChromium();
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    args: [...CHROMIUM_ARGS, ...found.args],
  });
  const load: number[] = [];
  const run: number[] = [];
  let embedBeforeClick = { bytes: 0, gzip: 0, sent: 0, files: 0 };
  try {
    // One workspace with one open draft; each sample is a fresh browser context (cold cache).
    const setup = await browser.newContext();
    const first = await setup.newPage();
    await first.goto(url);
    await first.getByLabel("New draft from a template").selectOption({ label: "Echo" });
    await first.locator(".monaco-editor .view-lines").first().waitFor();
    await first.getByTestId("save-state").getByText("saved").waitFor();
    await first.getByRole("button", { name: "Share", exact: true }).click();
    const shareId = (await first.getByTestId("share-link").inputValue()).split("/s/")[1] ?? "";
    const storage = await setup.storageState();
    await setup.close();

    const embed = await browser.newContext();
    const embedPage = await embed.newPage();
    const scripts: Promise<Buffer>[] = [];
    const sent: Promise<number>[] = [];
    embedPage.on("response", (response) => {
      if (response.request().resourceType() !== "script") return;
      scripts.push(response.body());
      sent.push(
        response
          .request()
          .sizes()
          .then((sizes) => sizes.responseBodySize),
      );
    });
    await embedPage.goto(`${url}/embed/${shareId}?ctl=1`);
    await embedPage.getByRole("button", { name: /Click to load/ }).waitFor();
    await embedPage.waitForLoadState("networkidle");
    const bodies = await Promise.all(scripts);
    embedBeforeClick = {
      bytes: bodies.reduce((sum, body) => sum + body.length, 0),
      gzip: bodies.reduce((sum, body) => sum + gzipSync(body).length, 0),
      sent: (await Promise.all(sent)).reduce((sum, size) => sum + size, 0),
      files: bodies.length,
    };
    await embed.close();

    for (let i = 0; i < samples; i++) {
      const context = await browser.newContext({ storageState: storage });
      const page = await context.newPage();
      const start = Date.now();
      await page.goto(url);
      await page.locator(".monaco-editor .view-lines").getByText("export default").waitFor();
      load.push(Date.now() - start);

      // A person reads the code before running it: the page settles (Monaco's workers start) first.
      await page.waitForTimeout(1000);
      // Timed in the page: from the key press to the first console line in the DOM.
      const elapsed = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            const console = document.querySelector('[data-testid="console"]');
            const before = document.querySelectorAll('[data-testid="console-line"]').length;
            let pressedAt = 0;
            const observer = new MutationObserver(() => {
              if (pressedAt && document.querySelectorAll('[data-testid="console-line"]').length > before) {
                observer.disconnect();
                resolve(performance.now() - pressedAt);
              }
            });
            observer.observe(console ?? document.body, { childList: true, subtree: true });
            pressedAt = performance.now();
            window.dispatchEvent(new KeyboardEvent("keydown", { key: "Enter", ctrlKey: true, bubbles: true }));
          }),
      );
      run.push(elapsed);
      await context.close();
    }
  } finally {
    await browser.close();
  }

  const assets = join(distDir, "assets");
  const bundles = readdirSync(assets)
    .filter((name) => /\.(js|css)$/.test(name))
    .map((name) => {
      const bytes = statSync(join(assets, name)).size;
      return {
        name: name.replace(/-[A-Za-z0-9_-]{8}\./, "."),
        bytes,
        gzip: gzipSync(readFileSync(join(assets, name))).length,
      };
    })
    .sort((a, b) => b.bytes - a.bytes);
  return { loadToEditable: summarize(load), runToFirstLine: summarize(run), embedBeforeClick, bundles };
}
