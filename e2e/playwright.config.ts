import { defineConfig } from "@playwright/test";

/** Browser tests: real Chromium (Debian's, Playwright cannot download its own here) against a started Workshop. */
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
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost",
      ],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
