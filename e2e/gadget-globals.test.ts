/**
 * What a gadget's code can see, as packages/workshop-frontend/AGENTS.md describes it: the docs promise
 * exactly this, so a runtime upgrade that changes it fails here first.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Connected, connectNewWorkspace, gadget } from "./helpers.ts";

let ws: Connected;
beforeAll(async () => {
  ws = await connectNewWorkspace();
});
afterAll(() => ws.client[Symbol.dispose]());

async function run(source: string) {
  const session = ws.client.getSession();
  const draft = await session.createDraft({ files: gadget(source) });
  return session.runDraft(draft.id, null);
}

describe("what a gadget sees", () => {
  it("has the web platform's globals and Node's process and Buffer, with nothing reaching outside", async () => {
    const outcome = await run(`export default {
  async run() {
    const fs: any = await import(["node", "fs"].join(":")).catch((e: Error) => e.message);
    let readError = "";
    try { fs.readFileSync("/etc/hostname"); } catch (e) { readError = (e as Error).message; }
    let fetchError = "";
    try { await fetch("http://127.0.0.1:1/"); } catch (e) { fetchError = (e as Error).message; }
    return {
      process: typeof process, buffer: typeof Buffer, crypto: typeof crypto.randomUUID,
      structuredClone: typeof structuredClone, fsLoaded: typeof fs === "object",
      readError: readError.length > 0, fetchError,
    };
  },
};`);
    expect(outcome.status).toBe("ok");
    if (outcome.status !== "ok") return;
    expect(outcome.result).toMatchObject({
      process: "object",
      buffer: "function",
      crypto: "function",
      structuredClone: "function",
      fsLoaded: true,
      readError: true,
    });
    expect((outcome.result as { fetchError: string }).fetchError).toMatch(/not permitted to access the internet/);
  });

  it("refuses a literal import of a URL at build time, even inside try/catch", async () => {
    const outcome = await run(`export default {
  async run() {
    try { await import("https://example.com/x.js"); } catch { return "caught"; }
    return "loaded";
  },
};`);
    expect(outcome).toMatchObject({ status: "error", kind: "invalid" });
  });
});
