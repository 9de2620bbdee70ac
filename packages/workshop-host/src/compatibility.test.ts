import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { COMPATIBILITY_DATE } from "@gadgets/workshop-backend/compatibility";

describe("COMPATIBILITY_DATE", () => {
  it("is the date wrangler.toml deploys with", () => {
    const toml = readFileSync(new URL("../../../wrangler.toml", import.meta.url), "utf8");
    expect(/^compatibility_date = "([^"]+)"/m.exec(toml)?.[1]).toBe(COMPATIBILITY_DATE);
  });
});
