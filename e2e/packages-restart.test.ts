/**
 * A draft locked against a real registry (Verdaccio on loopback) runs after the Workshop restarts on the
 * same data folder with that registry stopped: the first run of the new Workshop process, with nothing
 * in memory, builds from the packages the Workshop stored on disk.
 */

import { createRpcClient, type GadgetFile, type RunOutcome } from "@gadgets/workshop-shared";
import { afterAll, describe, expect, it } from "vitest";
import { type PackagesWorkshop, startPackagesWorkshop } from "./registry/packages-workshop.ts";

let packages: PackagesWorkshop | undefined;

afterAll(() => packages?.stop());

// ESM with its own types, CommonJS with a JSON require, and a three-level chain: every kind of stored package.
const SOURCE = `import { z } from "fx-zod";
import { add, answer } from "fx-cjs";
import { a } from "fx-chain-a";
export default {
  async run({ name }: { name: unknown }) {
    return { name: z.string().parse(name), sum: add(2, 3), answer, chain: a() };
  },
};
`;

function okResult(outcome: RunOutcome) {
  if (outcome.status !== "ok") throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome.result;
}

describe("npm packages across a Workshop restart", () => {
  it("runs the same draft first thing after a restart, with the registry stopped, from the store", async () => {
    packages = await startPackagesWorkshop({ dataPrefix: "workshop-packages-restart-" });
    const registryUrl = packages.registry.url;

    const token = await packages.newToken();
    let draftId: string;
    let expected: unknown;
    {
      using client = createRpcClient({ url: packages.workshop.url, token });
      const session = client.getSession();
      const dependencies = { "fx-zod": "^4.1.0", "fx-cjs": "1", "fx-chain-a": "1" };
      const resolved = await session.resolveDependencies({ dependencies });
      if (resolved.status !== "ok") throw new Error(resolved.message);
      const files: GadgetFile[] = [
        { path: "gadget.json", content: JSON.stringify({ name: "restarts", entry: "index.ts", dependencies }) },
        { path: "index.ts", content: SOURCE },
        { path: "gadget.lock.json", content: resolved.lock },
      ];
      const draft = await session.createDraft({ files });
      draftId = draft.id;
      expected = okResult(await session.runDraft(draftId, { name: "Ada" }));
      expect(expected).toMatchObject({ name: "Ada", sum: 5, answer: 42 });
    }

    await packages.stopWorkshop();
    await packages.stopRegistry();
    // Nothing answers at the registry's address now: any fetch would fail the run.
    await expect(fetch(`${registryUrl}fx-zod`)).rejects.toThrow();

    const workshop = await packages.startWorkshop();
    using client = createRpcClient({ url: workshop.url, token });
    const session = client.getSession();
    // The new process's very first run: no build, package or isolate cached in memory.
    expect(okResult(await session.runDraft(draftId, { name: "Ada" }))).toEqual(expected);
    // The editor's declarations come from the store too.
    const draft = await session.openDraft(draftId);
    const lock = draft.files.find((file) => file.path === "gadget.lock.json")?.content ?? "";
    const types = await session.packageTypes(lock);
    expect(types.files.map((file) => file.path)).toContain("node_modules/fx-zod/index.d.ts");
  }, 180_000);
});
