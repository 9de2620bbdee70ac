import { defineConfig } from "@playwright/test";

/**
 * Browser tests: real Chromium against a started Workshop. Playwright cannot download its own browser
 * here; global-setup finds one (CHROMIUM_PATH, a system Chromium, or the npm-shipped one).
 */
const extraArgs = JSON.parse(process.env.WORKSHOP_CHROMIUM_ARGS ?? "[]") as string[];

export default defineConfig({
  testDir: "./browser",
  testMatch: "**/*.spec.ts",
  globalSetup: "./browser/global-setup.ts",
  timeout: 60_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 1,
  reporter: [["list"]],
  outputDir: "../test-results/browser",
  use: {
    baseURL: process.env.WORKSHOP_E2E_URL,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
        ...extraArgs,
      ],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
