/**
 * Packages loaded by the build, run in real isolates: a real runner (workerd, Worker Loader, the
 * harness) executes what `buildGadget` made of in-memory package trees, so what the build decides about
 * ES modules, CommonJS, JSON and built-ins is checked against the runtime itself.
 */

import { createRequire } from "node:module";
import type { LaneReply, RunnerLaneApi } from "@gadgets/workshop-pool/protocol";
import { type MessageSocket, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import type { RpcStub } from "capnweb";
import { WebSocket } from "ws";
import type { GadgetManifest, JsonValue } from "@gadgets/workshop-shared/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildGadget } from "@gadgets/workshop-backend/build/gadget-build.ts";
import { WORKERD_BUILTINS } from "@gadgets/workshop-backend/build/node-builtins.ts";
import { mapError } from "@gadgets/workshop-backend/build/stack-map.ts";
import { gadgetWith, type MemoryPackage, memoryTree } from "@gadgets/workshop-backend/build/testing/memory-packages.ts";
import { type RunnerProcess, startRunner } from "./runner-process.ts";
import { bundleWorker } from "./worker-bundle.ts";

const require = createRequire(import.meta.url);
let runner: RunnerProcess;
let lane: RpcStub<RunnerLaneApi>;
/** A runner serves one workspace for its life. */
const workspaceId = "pkg-ws";

beforeAll(async () => {
  runner = await startRunner(await bundleWorker(require.resolve("@gadgets/workshop-backend/runner-entry")), 256);
  await runner.assign(workspaceId, 4);
  const socket = new WebSocket(runner.laneUrl.replace("http:", "ws:"));
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  lane = newBatchedRpcSession<RunnerLaneApi>(socket as unknown as MessageSocket);
}, 60_000);
afterAll(() => runner?.kill());

let runs = 0;

async function runGadget(
  source: string,
  packages: Record<string, MemoryPackage>,
  dependencies: Record<string, string>,
) {
  const tree = memoryTree(packages, dependencies);
  const files = gadgetWith(source, dependencies, tree.lock);
  const manifest = JSON.parse(files[0]?.content ?? "{}") as GadgetManifest;
  runs++;
  const built = await buildGadget(files, manifest, workspaceId, tree.source);
  if (!built.ok) throw new Error(built.error.message);
  const reply: LaneReply = await lane.execute(
    {
      leaseId: "test",
      runId: `run-${runs}`,
      workspaceId,
      grants: {},
      isolateKey: `${workspaceId}:${built.build.gadget.hash}`,
      gadget: built.build.gadget,
      payload: null,
      limits: { cpuMs: 5000, timeoutMs: 10_000 },
    },
    null,
  );
  return { reply, build: built.build };
}

async function resultOf(
  source: string,
  packages: Record<string, MemoryPackage>,
  dependencies: Record<string, string>,
): Promise<JsonValue> {
  const { reply, build } = await runGadget(source, packages, dependencies);
  if (reply.status === "error" && "error" in reply) throw new Error(mapError(reply.error, build).stack);
  if (reply.status !== "ok") throw new Error(`the run ended ${reply.status}`);
  return reply.result;
}

const packages: Record<string, MemoryPackage> = {
  "node_modules/zodlike": {
    files: {
      "index.js": 'export { z } from "./lib/z.js";\nexport default "zodlike";',
      "lib/z.js":
        "export const z = { string: () => ({ parse: (v) => { if (typeof v !== 'string') throw new TypeError('Expected string'); return v; } }) };",
    },
    manifest: { type: "module", exports: { ".": { types: "./index.d.ts", import: "./index.js" } } },
  },
  "node_modules/cjs-lib": {
    files: {
      "index.js": [
        '"use strict";',
        'const helper = require("./helper");',
        'const deep = require("deep");',
        'const data = require("./data.json");',
        'const esm = require("./esm.mjs");',
        'const { Buffer } = require("buffer");',
        'const EventEmitter = require("events");',
        'exports.greet = (name) => helper.hi + " " + name;',
        "exports.deep = deep.value;",
        "exports.version = data.version;",
        "exports.esm = esm.fromEsm;",
        "exports.base64 = Buffer.from('hi').toString('base64');",
        "exports.emitter = typeof new EventEmitter().on;",
        "exports.fails = () => { throw new Error('thrown in cjs-lib'); };",
      ].join("\n"),
      "helper.js": "module.exports = { hi: 'hello' };",
      "data.json": '{ "version": "1.2.3" }',
      "esm.mjs": "export const fromEsm = 'esm via require';",
    },
  },
  "node_modules/deep": { files: { "index.js": 'module.exports = { value: require("deeper").value + "!" };' } },
  "node_modules/deep/node_modules/deeper": { version: "2.0.0", files: { "index.js": "exports.value = 'nested v2';" } },
  "node_modules/deeper": { version: "1.0.0", files: { "index.js": "exports.value = 'top v1';" } },
  "node_modules/ts-cjs": {
    files: {
      "index.js":
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.named = 2;\nexports.default = function answer() { return 42; };',
    },
  },
  "node_modules/builtins": {
    files: { "index.js": 'module.exports = require("module").builtinModules;' },
  },
  "node_modules/esm-node": {
    files: { "index.js": 'import { EventEmitter } from "node:events";\nexport const kind = typeof EventEmitter;' },
    manifest: { type: "module" },
  },
};

const dependencies = {
  zodlike: "*",
  "cjs-lib": "*",
  deeper: "1",
  "ts-cjs": "*",
  builtins: "*",
  "esm-node": "*",
};

describe("packages in a real isolate", () => {
  it("runs named imports from ES modules and CommonJS, require chains, JSON, require(esm) and built-ins", async () => {
    const result = await resultOf(
      `import { z } from "zodlike";
import lib, { greet, deep, version, esm, base64, emitter } from "cjs-lib";
import { value } from "deeper";
import answer, { named } from "ts-cjs";
import { kind } from "esm-node";
export default { async run() {
  return { parsed: z.string().parse("ok"), greet: greet("you"), deep, top: value, version, esm, base64, emitter,
    sameDefault: lib.greet === greet, answer: answer(), named, kind };
} };`,
      packages,
      dependencies,
    );
    expect(result).toEqual({
      parsed: "ok",
      greet: "hello you",
      deep: "nested v2!",
      top: "top v1",
      version: "1.2.3",
      esm: "esm via require",
      base64: "aGk=",
      emitter: "function",
      sameDefault: true,
      answer: 42,
      named: 2,
      kind: "function",
    });
  });

  it("provides exactly the built-ins the build leaves to the runtime", async () => {
    const result = await resultOf(
      'import list from "builtins";\nexport default { async run() { return list; } };',
      packages,
      dependencies,
    );
    expect([...(result as string[])].sort()).toEqual([...WORKERD_BUILTINS].sort());
  });

  it("shows a throw inside a package at its node_modules file and line", async () => {
    const { reply, build } = await runGadget(
      'import { fails } from "cjs-lib";\nexport default { async run() {\n  return fails();\n} };',
      packages,
      dependencies,
    );
    expect(reply).toMatchObject({ status: "error", kind: "user" });
    if (reply.status !== "error" || !("error" in reply)) return;
    const mapped = mapError(reply.error, build);
    expect(mapped.message).toBe("thrown in cjs-lib");
    expect(mapped.frames.find((frame) => frame.file !== "<runtime>")).toMatchObject({
      file: "node_modules/cjs-lib/index.js",
      line: 14,
      column: 31,
    });
    expect(mapped.stack).toContain("index.ts:3:");
  });

  it("names the package that throws while it loads", async () => {
    const { reply, build } = await runGadget(
      'import "reads-fs";\nexport default { async run() { return 1; } };',
      {
        "node_modules/reads-fs": {
          files: {
            "index.js":
              'const fs = require("fs");\nmodule.exports = fs.readFileSync(__dirname + "/template.txt", "utf8");',
          },
        },
      },
      { "reads-fs": "*" },
    );
    expect(reply).toMatchObject({ status: "error" });
    if (reply.status !== "error" || !("error" in reply)) return;
    const mapped = mapError(reply.error, build);
    expect(mapped.message).toContain('package "reads-fs"');
    expect(mapped.message).toContain("while it loaded");
    expect(mapped.frames.find((frame) => frame.file !== "<runtime>")).toMatchObject({
      file: "node_modules/reads-fs/index.js",
      line: 2,
    });
  });
});
