/**
 * The client in a backend outside this repository: a fresh npm project installs
 * `@gadgets/workshop-shared` and `@gadgets/backend-utils` from the tarballs the running Workshop
 * serves (`/packages/…tgz`, packed by `pnpm build`), with every registry request bound to fail, then
 * type-checks the product's backend example (fixtures/examples/execute-agent.ts, verbatim) with
 * TypeScript and runs it with plain Node 22 (the project's) and Node 20 (e2e/node20's), which has no
 * WebSocket of its own.
 */

import { execFile, execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { REPO_ROOT } from "./cli-process.ts";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

// npm and TypeScript in a fresh project take a while on a loaded machine.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

const runFile = promisify(execFile);
const require = createRequire(import.meta.url);

/** Nothing listens here: a registry request fails at once instead of reaching the internet. */
const DEAD_REGISTRY = "http://127.0.0.1:9/";

const tarballUrl = (library: string): string => {
  const { name, version } = JSON.parse(readFileSync(join(REPO_ROOT, "packages", library, "package.json"), "utf8"));
  return `${workshopUrl()}/packages/${name.replace(/^@/, "").replace("/", "-")}-${version}.tgz`;
};

/** Node 20, from the `node` package that e2e/node20 installs, so the test needs no Node 20 on the machine. */
const node20 = (): string =>
  join(
    dirname(createRequire(join(REPO_ROOT, "e2e", "node20", "package.json")).resolve("node/package.json")),
    "bin",
    "node",
  );

const example = readFileSync(new URL("./fixtures/examples/execute-agent.ts", import.meta.url), "utf8");

let project = "";
let token = "";
let agentId = "";

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), "workshop-client-"));
  const connected = await connectNewWorkspace();
  using client = connected.client;
  token = connected.token;
  const session = client.getSession();
  const draft = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "echo" }) });
  ({ agentId } = await session.publishDraft(draft.id));

  for (const library of ["workshop-shared", "backend-utils"]) {
    const response = await fetch(tarballUrl(library));
    await response.body?.cancel();
    if (!response.ok)
      throw new Error(`The Workshop does not serve ${tarballUrl(library)} (${response.status}): run pnpm build first.`);
  }
  const npm = (...args: string[]) =>
    execFileSync("npm", args, {
      cwd: project,
      encoding: "utf8",
      env: { ...process.env, npm_config_registry: DEAD_REGISTRY, npm_config_cache: join(project, ".npm-cache") },
    });
  npm("init", "-y");
  npm("pkg", "set", "type=module");
  npm(
    "install",
    "--no-audit",
    "--no-fund",
    "--fetch-retries=0",
    tarballUrl("workshop-shared"),
    tarballUrl("backend-utils"),
  );
});

afterAll(() => {
  if (project) rmSync(project, { recursive: true, force: true });
});

describe("the client installed in a project outside the repository", () => {
  it("installs only built JavaScript and types, with no dependency to fetch", () => {
    for (const library of ["workshop-shared", "backend-utils"]) {
      const installed = join(project, "node_modules", "@gadgets", library);
      const manifest = JSON.parse(readFileSync(join(installed, "package.json"), "utf8"));
      expect(manifest.dependencies ?? {}).toEqual({});
      const files = readdirSync(installed, { recursive: true }) as string[];
      expect(files.filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts"))).toEqual([]);
      expect(files.some((file) => file.endsWith(".d.ts"))).toBe(true);
    }
    expect(readdirSync(join(project, "node_modules")).filter((name) => name !== ".package-lock.json")).toEqual([
      "@gadgets",
    ]);
  });

  it("type-checks the backend example with tsc, and the types are not any", () => {
    mkdirSync(join(project, "src"));
    writeFileSync(
      join(project, "src", "main.ts"),
      `${example}
console.log(JSON.stringify({ returned: await executeAgent(${JSON.stringify(agentId)}, { input: "from a backend" }) }));
`,
    );
    writeFileSync(
      join(project, "src", "typed.ts"),
      `import { createRpcClient } from "@gadgets/workshop-shared";
const outcome = await createRpcClient().getAgent("echo").runWithEvents({ input: "hi" });
// @ts-expect-error A RunOutcome's status is one of its kinds, so this line fails only if the types are real.
export const status: "no such status" = outcome.status;
`,
    );
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          module: "nodenext",
          strict: true,
          // The installed types are checked too, as a project that keeps TypeScript's default does.
          skipLibCheck: false,
          rootDir: "src",
          outDir: "dist",
        },
        include: ["src"],
      }),
    );
    const tsc = require.resolve("typescript/bin/tsc");
    const result = (() => {
      try {
        return execFileSync(process.execPath, [tsc, "-p", project], { encoding: "utf8" });
      } catch (error) {
        return (error as { stdout: string }).stdout;
      }
    })();
    expect(result).toBe("");
  });

  it.each([
    { name: "Node 22", binary: () => process.execPath, version: /^v22\./ },
    { name: "Node 20", binary: node20, version: /^v20\./ },
  ])("runs the backend example with $name, which logs one line and exits by itself", async ({ binary, version }) => {
    const node = binary();
    expect(execFileSync(node, ["--version"], { encoding: "utf8" })).toMatch(version);
    const { stdout } = await runFile(node, [join(project, "dist", "main.js")], {
      cwd: project,
      env: { PATH: "/usr/bin:/bin", WORKSHOP_URL: workshopUrl(), WORKSHOP_TOKEN: token },
      // The example never disposes its client: it must end on its own.
      timeout: 20_000,
    });
    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "Agent executed", agentId, result: "Echo: from a backend" }),
    );
    expect(lines.at(-1)).toEqual({ returned: "Echo: from a backend" });
  });
});
