/**
 * The Worker as deployed: `wrangler dev` with the repository's own wrangler.toml (local mode, offline,
 * no account), so the bindings `wrangler deploy` gives it on Cloudflare — Worker Loader in-process,
 * Durable Objects with SQLite, the assets — serve the product's main paths: a workspace, a draft saved
 * and run with live events, an agent published and called, a share opened and run, and the IDE page
 * in Chromium with no console errors. One start for the whole file.
 *
 * No gadget here spins: under `wrangler dev` isolates run on the Worker's own thread with no limits,
 * so a `while (true)` would freeze the server (the local host's runner pool is what stops those).
 * Everything below is served offline; nothing needed the network.
 */

import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { createRpcClient, type RunEvent } from "@gadgets/workshop-shared";
import { freePort, REPO_ROOT } from "@gadgets/workshop-host";
import { findChromium } from "@gadgets/workshop-host/chromium";
import { chromium } from "@playwright/test";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { gadget } from "./helpers.ts";

// wrangler bundles the Worker itself before it answers: allow for a loaded machine.
vi.setConfig({ testTimeout: 60_000, hookTimeout: 180_000 });

const wranglerBin = join(
  dirname(createRequire(join(REPO_ROOT, "package.json")).resolve("wrangler/package.json")),
  "bin",
  "wrangler.js",
);

let wrangler: ChildProcess | undefined;
let persistDir = "";
let url = "";
let output = "";

async function waitForHealth(): Promise<void> {
  const deadline = Date.now() + 150_000;
  while (Date.now() < deadline) {
    if (wrangler?.exitCode !== null) throw new Error(`wrangler dev exited (${wrangler?.exitCode}):\n${output}`);
    const healthy = await fetch(`${url}/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`wrangler dev did not answer on ${url}/health:\n${output}`);
}

beforeAll(async () => {
  if (!existsSync(join(REPO_ROOT, "apps", "workshop", "dist", "index.html")))
    throw new Error("wrangler.toml's assets (apps/workshop/dist) are not built: run pnpm build first.");
  persistDir = mkdtempSync(join(tmpdir(), "workshop-wrangler-"));
  const port = await freePort();
  const inspectorPort = await freePort();
  url = `http://127.0.0.1:${port}`;
  wrangler = spawn(
    process.execPath,
    [
      wranglerBin,
      "dev",
      "--config",
      join(REPO_ROOT, "wrangler.toml"),
      "--local",
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--persist-to",
      persistDir,
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: REPO_ROOT,
      // Its own process group, so stopping it stops the workerd it started too.
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", CI: "1" },
    },
  );
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-20_000);
  };
  wrangler.stdout?.on("data", keep);
  wrangler.stderr?.on("data", keep);
  await waitForHealth();
});

afterAll(async () => {
  const child = wrangler;
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((done) => child.once("exit", done));
    process.kill(-child.pid, "SIGTERM");
    const timer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5000);
    await exited;
    clearTimeout(timer);
  }
  if (persistDir) rmSync(persistDir, { recursive: true, force: true });
});

const LOGGING_GADGET = `export default {
  async run({ input }: { input: string }) {
    console.log("started", input);
    await new Promise((resolve) => setTimeout(resolve, 300));
    console.log("finishing");
    return \`Echo: \${input}\`;
  },
};
`;

describe("the Worker under wrangler dev with the repository's wrangler.toml", () => {
  it("saves and runs a draft with live events, publishes it, calls the agent and runs its share", async () => {
    using boot = createRpcClient({ url });
    const { token } = await boot.createWorkspace();
    using client = createRpcClient({ url, token });
    const session = client.getSession();

    const draft = await session.createDraft({ files: gadget("export default { run: () => 1 };", { name: "echo" }) });
    const saved = await session.saveDraft(draft.id, {
      baseVersion: draft.version,
      files: gadget(LOGGING_GADGET, { name: "echo" }),
    });
    expect(saved.status).toBe("saved");

    // Live: the first line reaches the client while the run is still going.
    let finished = false;
    const seenWhileRunning: string[] = [];
    const outcome = await session.runDraft(draft.id, { input: "hi" }, (event: RunEvent) => {
      if (event.type === "log" && !finished) seenWhileRunning.push(JSON.stringify(event.values));
    });
    finished = true;
    expect(outcome).toMatchObject({ status: "ok", result: "Echo: hi" });
    expect(seenWhileRunning[0]).toContain("started");
    expect(seenWhileRunning.some((line) => line.includes("finishing"))).toBe(true);

    const { agentId } = await session.publishDraft(draft.id);
    expect(await client.getAgent(agentId).run({ input: "agent" })).toBe("Echo: agent");
    expect(await client.getAgent("echo").run({ input: "by name" })).toBe("Echo: by name");

    const { shareId } = await session.shareDraft(draft.id, { input: "shared" });
    const page = await fetch(`${url}/s/${shareId}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/^text\/html/);
    await page.body?.cancel();
    using visitor = createRpcClient({ url });
    const share = visitor.api.openShare(shareId);
    expect((await share.snapshot()).shareId).toBe(shareId);
    expect(await share.run({ input: "shared" })).toMatchObject({ status: "ok", result: "Echo: shared" });
  });

  it("answers a missing file with the not-found page, 404, in every encoding, never the app as that file", async () => {
    for (const path of ["/missing.js", "/assets/gone-1a2b3c.js", "/assets/", "/packages/gone-1.0.0.tgz"])
      for (const encoding of ["identity", "gzip", "br"]) {
        const response = await fetch(`${url}${path}`, { headers: { "Accept-Encoding": encoding } });
        const what = `${path} (${encoding})`;
        expect(response.status, what).toBe(404);
        expect(response.headers.get("content-type"), what).toContain("text/html");
        expect(response.headers.get("content-security-policy"), what).toContain("frame-ancestors 'none'");
        expect(response.headers.get("cache-control"), what).toBe("no-cache");
        expect(await response.text(), what).toContain("<html");
      }
  });

  it("serves the IDE, which opens its first example in Chromium with no console or page errors", async () => {
    const binary = await findChromium();
    const browser = await chromium.launch({
      executablePath: binary.executablePath,
      args: [...binary.args, "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost"],
    });
    try {
      const page = await browser.newPage();
      const errors: string[] = [];
      page.on("pageerror", (error) => errors.push(`page: ${error.message}`));
      page.on("console", (message) => {
        if (message.type() === "error") errors.push(`console: ${message.text()}`);
      });
      await page.goto(url);
      await page.locator(".monaco-editor .view-lines").getByText("Echo:").waitFor({ timeout: 30_000 });
      await page.keyboard.press("ControlOrMeta+Enter");
      await page.getByTestId("run-result").waitFor({ timeout: 30_000 });
      expect(errors).toEqual([]);
    } finally {
      await browser.close();
    }
  });
});
