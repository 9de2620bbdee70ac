/**
 * `@gadgets/cli` installed in another project as a dev dependency: packed like a release (the bundle
 * built by its build script, no sources), installed from the tarball with npm, and run from that
 * project's node_modules/.bin against the started Workshop.
 */

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRpcClient } from "@gadgets/workshop-shared";
import { expect, it, vi } from "vitest";
import { REPO_ROOT } from "./cli-process.ts";
import { ECHO_SOURCE, workshopUrl } from "./helpers.ts";

// Building, packing and installing take a while on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

it("installs from its packed tarball into another project and runs a gadget there", async () => {
  const cliPackage = join(REPO_ROOT, "packages", "workshop-cli");
  const work = mkdtempSync(join(tmpdir(), "gadgets-install-"));
  execFileSync(process.execPath, [join(cliPackage, "scripts", "build.ts")]);
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", work], {
    cwd: cliPackage,
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .at(-1) as string;

  const project = join(work, "project");
  mkdirSync(join(project, "echo"), { recursive: true });
  writeFileSync(join(project, "package.json"), JSON.stringify({ name: "project", private: true }));
  writeFileSync(join(project, "echo", "gadget.json"), JSON.stringify({ name: "echo", entry: "index.ts" }));
  writeFileSync(join(project, "echo", "index.ts"), ECHO_SOURCE);
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", "-D", join(work, packed)], {
    cwd: project,
    encoding: "utf8",
  });
  const installed = join(project, "node_modules", "@gadgets", "cli");
  expect(existsSync(join(installed, "dist", "gadgets.js"))).toBe(true);
  expect(existsSync(join(installed, "src"))).toBe(false);

  using boot = createRpcClient({ url: workshopUrl() });
  const { token } = await boot.createWorkspace();
  const output = execFileSync(
    join(project, "node_modules", ".bin", "gadgets"),
    ["run", "echo", "--input", '{"input":"from elsewhere"}'],
    {
      cwd: project,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      // Node 22 first on PATH, as `npx gadgets` with Node 22 installed would have it.
      env: { PATH: `${dirname(process.execPath)}:/usr/bin:/bin`, WORKSHOP_URL: workshopUrl(), WORKSHOP_TOKEN: token },
    },
  );
  expect(JSON.parse(output)).toBe("Echo: from elsewhere");
});
