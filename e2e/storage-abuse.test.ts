import { mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWorkshopServer, type WorkshopServer } from "@gadgets/workshop-host";
import { createRpcClient } from "@gadgets/workshop-shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Every file under a folder, so a test can see whether anything was written. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: "utf8" }).filter((name) => statSync(join(dir, name)).isFile());
}

describe("lookups of things that do not exist", () => {
  let server: WorkshopServer;
  let dataDir: string;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), "workshop-abuse-"));
    server = await startWorkshopServer({ dataDir, pool: false });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("unknown workspace tokens and share ids write nothing, and a connection that keeps guessing is refused", async () => {
    const before = new Set(filesUnder(dataDir));
    using client = createRpcClient({ url: server.url });
    for (let i = 0; i < 5; i++) {
      const token = `gw_${String(i).padStart(43, "A")}`;
      await expect(createRpcClient({ url: server.url, token }).getSession().listDrafts()).rejects.toThrow(
        /Unknown workspace token/,
      );
      await expect(client.api.openShare(`${String(i).padStart(22, "B")}`).snapshot()).rejects.toThrow(/does not exist/);
      expect((await fetch(`${server.url}/s/${String(i).padStart(22, "C")}`)).status).toBe(404);
    }
    // Local workerd opens an empty database file for any object it looks at; nothing may be written to it.
    const created = filesUnder(dataDir).filter((name) => !before.has(name));
    for (const name of created) {
      const size = statSync(join(dataDir, name)).size;
      if (name.endsWith(".sqlite-wal")) expect(size, name).toBe(0);
      if (name.endsWith(".sqlite")) expect(size, name).toBeLessThanOrEqual(4096);
    }

    using guesser = createRpcClient({ url: server.url });
    for (let i = 0; i < 20; i++)
      await guesser.api
        .openShare(`${String(i).padStart(22, "D")}`)
        .snapshot()
        .catch(() => undefined);
    await expect(guesser.api.openShare("EEEEEEEEEEEEEEEEEEEEEE").snapshot()).rejects.toThrow(
      /Too many lookups of tokens or links that do not exist/,
    );
  });
});
