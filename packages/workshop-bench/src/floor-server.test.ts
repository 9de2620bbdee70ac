import { newWebSocketRpcSession } from "capnweb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Floor, startFloor } from "./floor-server.ts";

interface CodeRunner {
  run(code: string, payload: unknown): Promise<unknown>;
  storedRuns(): Promise<number>;
}

const ECHO = 'export default { async run({ input }) { return "Echo: " + input; } };';

describe("the bench's floors", () => {
  let floor: Floor;
  let duties: Floor;
  let hopDuties: Floor;

  beforeAll(async () => {
    floor = await startFloor();
    [duties, hopDuties] = await Promise.all([
      startFloor({ duties: ["lookup", "record", "log"] }),
      startFloor({ duties: ["lookup", "record", "log"], relayTo: floor.url }),
    ]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([hopDuties?.stop(), duties?.stop(), floor?.stop()]);
  });

  it("answer every run as the floor does, past a full batch of records, in the process or one away", async () => {
    for (const { url } of [duties, hopDuties]) {
      const session = newWebSocketRpcSession<CodeRunner>(url);
      try {
        // More runs than one batch of records holds: a batch is written while runs go on.
        const results = [];
        for (let i = 0; i < 60; i++) results.push(await session.run(ECHO, { input: `run ${i}` }));
        expect(results).toEqual(Array.from({ length: 60 }, (_, i) => `Echo: run ${i}`));
        expect(await session.storedRuns()).toBe(60);
      } finally {
        session[Symbol.dispose]();
      }
    }
  }, 60_000);

  it("runs a code in an isolate made as the Workshop's, its harness answering for the gadget, there or one process away", async () => {
    const isolate = await startFloor({ workshopIsolate: true });
    const least = await startFloor({ relayTo: isolate.url, duties: ["lookup", "record", "log"] });
    const session = newWebSocketRpcSession<CodeRunner>(isolate.url);
    const away = newWebSocketRpcSession<CodeRunner>(least.url);
    try {
      expect(await session.run(ECHO, { input: "cold" })).toBe("Echo: cold");
      await expect(session.run("export default {};", {})).rejects.toThrow(/run/);
      expect(await away.run(`${ECHO}\n// new`, { input: "away" })).toBe("Echo: away");
      await expect(away.run("export default {};\n// new", {})).rejects.toThrow(/run/);
    } finally {
      session[Symbol.dispose]();
      away[Symbol.dispose]();
      await least.stop();
      await isolate.stop();
    }
  }, 60_000);
});
