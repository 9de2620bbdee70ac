import { parseArgs } from "node:util";
import { describe, expect, it } from "vitest";
import { protectDashedIds } from "./dashed-ids.ts";

const options = {
  input: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;
const parse = (args: string[]) =>
  parseArgs({ args: protectDashedIds(args, options), options, allowPositionals: true, strict: true });

describe("protectDashedIds", () => {
  it("takes an agent id that starts with a dash as the positional it is, pinned or not", () => {
    const id = "-1bcdefghijklmnopqrstu";
    expect(parse([`${id}@1`, "--input", '{"a":1}', "--json"])).toMatchObject({
      positionals: [`${id}@1`],
      values: { input: '{"a":1}', json: true },
    });
    expect(parse(["--json", id]).positionals).toEqual([id]);
  });

  it("leaves everything else alone: options, an option's value, other positionals and their order", () => {
    const id = "-1bcdefghijklmnopqrstu";
    expect(protectDashedIds(["echo@2", "--input", "{}"], options)).toEqual(["echo@2", "--input", "{}"]);
    expect(protectDashedIds(["--input", id], options)).toEqual(["--input", id]);
    expect(parse(["first", id, "--json"]).positionals).toEqual(["first", id]);
    expect(() => parse(["-x"])).toThrow(/Unknown option/);
  });
});
