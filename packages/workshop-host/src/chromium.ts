/**
 * Finds a Chromium for the browser tests and the IDE benchmark without root, apt or a download:
 * `CHROMIUM_PATH` when set, else a system Chromium, else the one `@sparticuz/chromium` ships inside
 * its npm tarball (extracted on first use, about 2 s). `CHROMIUM_PATH=bundled` skips the system one.
 */

import { existsSync } from "node:fs";

export interface ChromiumBinary {
  executablePath: string;
  source: "CHROMIUM_PATH" | "system" | "npm package";
  /** Flags this build needs on top of the caller's own. */
  args: string[];
}

const SYSTEM_PATHS = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/**
 * The npm build is a headless shell made for sandboxes without a zygote; of its recommended flags only
 * those it needs to start are taken (not the ones that turn off web security or site isolation, which
 * the tests check).
 */
const NPM_BUILD_ARGS = ["--no-zygote", "--no-sandbox", "--use-gl=angle", "--use-angle=swiftshader"];

export async function findChromium(env: Record<string, string | undefined> = process.env): Promise<ChromiumBinary> {
  const configured = env.CHROMIUM_PATH?.trim();
  if (configured && configured !== "bundled") {
    if (!existsSync(configured))
      throw new Error(`CHROMIUM_PATH is ${configured}, which does not exist. Unset it to use a bundled Chromium.`);
    return { executablePath: configured, source: "CHROMIUM_PATH", args: [] };
  }
  if (configured !== "bundled") {
    const system = SYSTEM_PATHS.find((path) => existsSync(path));
    if (system) return { executablePath: system, source: "system", args: [] };
  }
  const { default: bundled } = await import("@sparticuz/chromium");
  return { executablePath: await bundled.executablePath(), source: "npm package", args: NPM_BUILD_ARGS };
}
