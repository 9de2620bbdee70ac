import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMPATIBILITY_DATE, WORKER_COMPATIBILITY_FLAGS } from "@gadgets/workshop-backend/compatibility";

const toml = readFileSync(new URL("../../../wrangler.toml", import.meta.url), "utf8");

describe("the Worker's compatibility settings", () => {
  it("deploy with the date the local Workshop runs", () => {
    expect(/^compatibility_date = "([^"]+)"/m.exec(toml)?.[1]).toBe(COMPATIBILITY_DATE);
  });

  it("deploy with the flags the local Workshop runs", () => {
    const flags = /^compatibility_flags = (\[[^\]]*\])/m.exec(toml)?.[1];
    expect(JSON.parse(flags ?? "null")).toEqual([...WORKER_COMPATIBILITY_FLAGS]);
  });
});
