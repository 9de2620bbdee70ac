/**
 * Gadgets that import npm packages, run end to end: resolved against a real registry (Verdaccio on
 * loopback, e2e/registry/) by a Workshop of its own, then run as drafts, after the registry is gone
 * (the Workshop's own store serves the lock), as a published agent from Node, and through a share link.
 */

import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import {
  createRpcClient,
  type GadgetFile,
  type RunEvent,
  type RunOutcome,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "./helpers.ts";
import { type PackagesWorkshop, startPackagesWorkshop } from "./registry/packages-workshop.ts";

let packages: PackagesWorkshop;
const newClient = () => packages.newClient();

beforeAll(async () => {
  packages = await startPackagesWorkshop({ dataPrefix: "workshop-packages-run-" });
}, 120_000);

afterAll(() => packages?.stop());

const SOURCE = `import { z } from "fx-zod";
import { add, answer } from "fx-cjs";
export default {
  async run({ name }: { name: unknown }) {
    if (name === "boom") z.number().parse(name);
    return { name: z.string().parse(name), sum: add(2, 3), answer };
  },
};
`;

/** The gadget's files with `dependencies` and the lock the Workshop resolved for them. */
async function lockedGadget(client: WorkshopClient, name: string): Promise<GadgetFile[]> {
  const dependencies = { "fx-zod": "^4.1.0", "fx-cjs": "1" };
  const resolved = await client.getSession().resolveDependencies({ dependencies });
  if (resolved.status !== "ok") throw new Error(resolved.message);
  return [
    { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts", dependencies }) },
    { path: "index.ts", content: SOURCE },
    { path: "gadget.lock.json", content: resolved.lock },
  ];
}

function okResult(outcome: RunOutcome) {
  if (outcome.status !== "ok") throw new Error(`${outcome.kind}: ${outcome.message}`);
  return outcome.result;
}

describe("a gadget with npm packages", () => {
  it("shows a throw inside a package at its node_modules file", async () => {
    const client = await newClient();
    const session = client.getSession();
    const draft = await session.createDraft({ files: await lockedGadget(client, "throws-in-package") });
    const outcome = await session.runDraft(draft.id, { name: "boom" });
    expect(outcome).toMatchObject({ status: "error", kind: "user" });
    if (outcome.status !== "error") return;
    expect(outcome.error?.message).toContain("Expected number");
    const files = (outcome.error?.frames ?? []).map((frame) => frame.file);
    expect(files[0]).toBe("node_modules/fx-zod/index.js");
    expect(files).toContain("index.ts");
  });

  it("refuses an import the manifest does not declare, and a stale lock, naming what to do", async () => {
    const client = await newClient();
    const session = client.getSession();
    const undeclared = await session.createDraft({
      files: [
        { path: "gadget.json", content: JSON.stringify({ name: "undeclared", entry: "index.ts" }) },
        { path: "index.ts", content: SOURCE },
      ],
    });
    const refused = await session.runDraft(undeclared.id, { name: "x" });
    expect(refused).toMatchObject({ status: "error", kind: "invalid" });
    expect(refused.status === "error" && refused.message).toContain('"fx-zod" is not in the "dependencies"');

    const stale = await session.createDraft({
      files: [
        {
          path: "gadget.json",
          content: JSON.stringify({ name: "stale", entry: "index.ts", dependencies: { "fx-zod": "^4.1.0" } }),
        },
        {
          path: "index.ts",
          content: 'import { z } from "fx-zod";\nexport default { async run() { return typeof z; } };',
        },
      ],
    });
    const outcome = await session.runDraft(stale.id, null);
    expect(outcome).toMatchObject({ status: "error", kind: "invalid" });
    expect(outcome.status === "error" && outcome.message).toContain("no gadget.lock.json");
  });

  it("runs as a draft, as a published agent from Node and through a share link — also with the registry gone", async () => {
    const client = await newClient();
    const session = client.getSession();
    const draft = await session.createDraft({ files: await lockedGadget(client, "uses-packages") });
    const expected = { name: "Ada", sum: 5, answer: 42 };
    expect(okResult(await session.runDraft(draft.id, { name: "Ada" }))).toEqual(expected);

    const { agentId } = await session.publishDraft(draft.id);
    const { shareId } = await session.shareDraft(draft.id, { name: "Ada" });

    await packages.stopRegistry();

    // A save makes new files (new hash): nothing cached stands in for the store.
    const saved = await session.saveDraft(draft.id, {
      baseVersion: draft.version,
      files: draft.files.map((file) => (file.path === "index.ts" ? { ...file, content: `${file.content}\n` } : file)),
    });
    expect(saved.status).toBe("saved");
    expect(okResult(await session.runDraft(draft.id, { name: "Ada" }))).toEqual(expected);
    expect(await client.getAgent(agentId).run({ name: "Ada" })).toEqual(expected);

    using visitor = createRpcClient({ url: packages.workshop.url });
    expect(okResult(await visitor.api.openShare(shareId).run({ name: "Ada" }))).toEqual(expected);
  });

  it("stops a build's package fetch when its run is cancelled: the run ends cancelled, the request is dropped", async () => {
    // A registry that takes a tarball request and never answers it.
    const asked: IncomingMessage[] = [];
    const dropped: string[] = [];
    const hanging = createServer((request) => {
      asked.push(request);
      request.socket.on("close", () => dropped.push(request.url ?? ""));
    });
    await new Promise<void>((listening) => hanging.listen(0, "127.0.0.1", listening));
    const base = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}/`;
    try {
      const client = await newClient();
      const session = client.getSession();
      await session.setRegistry({ url: base });
      const lock = {
        lockfileVersion: 1,
        dependencies: { "fx-hangs": "1.0.0" },
        packages: {
          "node_modules/fx-hangs": {
            name: "fx-hangs",
            version: "1.0.0",
            resolved: `${base}fx-hangs/-/fx-hangs-1.0.0.tgz`,
            integrity: `sha512-${"A".repeat(86)}==`,
          },
        },
      };
      const draft = await session.createDraft({
        files: [
          {
            path: "gadget.json",
            content: JSON.stringify({ name: "hangs", entry: "index.ts", dependencies: { "fx-hangs": "1.0.0" } }),
          },
          {
            path: "index.ts",
            content: 'import hangs from "fx-hangs";\nexport default { async run() { return hangs; } };',
          },
          { path: "gadget.lock.json", content: JSON.stringify(lock) },
        ],
      });
      let runId: string | undefined;
      const run = session.runDraft(draft.id, null, (event: RunEvent) => {
        runId ??= event.runId;
      });
      expect(await eventually(async () => asked.length === 1 && runId !== undefined, 1000)).toBe(true);
      expect(await session.cancelRun(runId as string)).toBe(true);
      expect(await run).toMatchObject({ status: "error", kind: "cancelled" });
      expect(await eventually(async () => dropped.length === 1, 1000)).toBe(true);
      expect(dropped).toEqual(["/fx-hangs/-/fx-hangs-1.0.0.tgz"]);
    } finally {
      hanging.closeAllConnections();
      await new Promise((closed) => hanging.close(closed));
    }
  });
});
