/**
 * `pnpm screenshots`: the pictures in the README, taken from a real Workshop in real Chromium so they
 * stay current — the IDE mid-run (a gadget logging while it works) and an embedded playground on a
 * host page. Writes docs/ide.png and docs/embed.png.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT, startWorkshopServer } from "@gadgets/workshop-host";
import { findChromium } from "@gadgets/workshop-host/chromium";
import { chromium } from "@playwright/test";

const WORKING = `const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default {
  async run({ orders }: { orders: string[] }, env: GadgetEnv) {
    const done: string[] = [];
    for (const [i, order] of orders.entries()) {
      console.info(\`packing \${order}\`, { step: i + 1, of: orders.length, at: new Date() });
      await sleep(400);
      if (order.startsWith("x")) console.warn("unknown item, skipped:", order);
      else done.push(order);
    }
    return { packed: done.length, done };
  },
};
`;

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), "workshop-screens-"));
  const server = await startWorkshopServer({ dataDir });
  const found = await findChromium();
  const browser = await chromium.launch({
    executablePath: found.executablePath,
    args: ["--disable-gpu", "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1", ...found.args],
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 760 }, deviceScaleFactor: 1 });
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const page = await context.newPage();
    await page.goto(server.url);
    await page.locator(".monaco-editor .view-lines").getByText("Echo:").waitFor();
    await page.getByRole("button", { name: "Dismiss the welcome" }).click();
    // Type the gadget in as a person would: select all, paste.
    await page.locator(".monaco-editor .view-lines").first().click();
    await page.keyboard.press("ControlOrMeta+A");
    await page.evaluate((text) => navigator.clipboard.writeText(text), WORKING);
    await page.keyboard.press("ControlOrMeta+V");
    await page
      .locator("#payload")
      .fill(JSON.stringify({ orders: ["lamp", "desk", "x-ray", "chair", "shelf"] }, null, 2));
    await page.getByTestId("save-state").getByText("saved #2").waitFor();
    await page.keyboard.press("ControlOrMeta+Enter");
    // Mid-run: a few lines in, the run still going.
    await page.getByTestId("console-line").filter({ hasText: "chair" }).waitFor();
    await page.screenshot({ path: join(REPO_ROOT, "docs/ide.png") });
    await page.getByTestId("run-result").waitFor();

    // The embed, framed by a page of its own.
    await page.getByRole("button", { name: "Share", exact: true }).click();
    const notice = page.getByTestId("notice").filter({ hasText: "/s/" });
    await notice.waitFor();
    const shareId = /\/s\/([A-Za-z0-9_-]{22})/.exec((await notice.textContent()) ?? "")?.[1] ?? "";
    const embed = await browser.newPage({ viewport: { width: 760, height: 460 } });
    await embed.goto(`${server.url}/embed/${shareId}?theme=dark`);
    await embed.getByRole("button", { name: "Run" }).click();
    await embed.getByTestId("console-line").filter({ hasText: "desk" }).waitFor();
    await embed.screenshot({ path: join(REPO_ROOT, "docs/embed.png") });
    console.log("wrote docs/ide.png and docs/embed.png");
  } finally {
    await browser.close();
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
