/**
 * The `gadget-env.d.ts` the command line writes types `env.catalog.get(name)` from the workspace's
 * published agents: a gadget calling another checks in the user's own editor (plain `tsc` here), and
 * a wrong payload does not.
 */

import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { newCliUser, REPO_ROOT, runCli } from "./cli-process.ts";
import { workshopUrl } from "./helpers.ts";

// Each test spawns the real command line several times; on a loaded machine that takes a while.
vi.setConfig({ testTimeout: 120_000 });

function tsc(folder: string): { ok: boolean; output: string } {
  try {
    execFileSync(process.execPath, [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", folder], {
      encoding: "utf8",
    });
    return { ok: true, output: "" };
  } catch (error) {
    return { ok: false, output: String((error as { stdout?: string }).stdout) };
  }
}

const QUOTES_MANIFEST = {
  name: "quotes",
  entry: "index.ts",
  description: "The price of a symbol.",
  inputSchema: { type: "object", required: ["symbol"], properties: { symbol: { type: "string" } } },
  outputSchema: { type: "object", required: ["price"], properties: { price: { type: "number" } } },
};

const callerSource = (payload: string) => `export default {
  async run(_: unknown, env: GadgetEnv) {
    const { price } = await env.catalog.get("quotes").run(${payload});
    return price.toFixed(2);
  },
};
`;

describe("gadget-env.d.ts", () => {
  it("types env.catalog.get from the published agents' schemas once the catalog is granted", async () => {
    const user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(0);

    expect((await runCli(["init", "quotes"], user)).code).toBe(0);
    const quotes = join(user.cwd, "quotes");
    writeFileSync(join(quotes, "gadget.json"), JSON.stringify(QUOTES_MANIFEST));
    writeFileSync(
      join(quotes, "index.ts"),
      "export default {\n  async run(payload: { symbol: string }) {\n    return { price: payload.symbol.length };\n  },\n};\n",
    );
    expect((await runCli(["publish", "quotes"], user)).code).toBe(0);

    expect((await runCli(["init", "caller"], user)).code).toBe(0);
    const caller = join(user.cwd, "caller");
    const manifestPath = join(caller, "gadget.json");
    writeFileSync(
      manifestPath,
      JSON.stringify({ ...JSON.parse(readFileSync(manifestPath, "utf8")), grants: { catalog: true } }),
    );
    writeFileSync(join(caller, "index.ts"), callerSource('{ symbol: "ABCD" }'));
    const run = await runCli(["run", "caller"], user);
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toBe("4.00");

    const types = readFileSync(join(caller, "gadget-env.d.ts"), "utf8");
    expect(types).toContain("/** The price of a symbol. */");
    expect(types).toMatch(/ {2}quotes: GadgetAgent<\{ symbol: string \}, \{ price: number \}>;/);
    expect(tsc(caller)).toEqual({ ok: true, output: "" });

    writeFileSync(join(caller, "index.ts"), callerSource("{ symbol: 42 }"));
    const refused = tsc(caller);
    expect(refused.ok).toBe(false);
    expect(refused.output).toContain("Type 'number' is not assignable to type 'string'");
  });
});
