import { describe, expect, it } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { main } from "./main.ts";
import { ALL_ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";

async function mainWith(argv: string[]) {
  const out = { stdout: "", stderr: "" };
  const code = await main(
    argv,
    { stdout: { write: (text) => (out.stdout += text) }, stderr: { write: (text) => (out.stderr += text) } },
    new AbortController().signal,
  );
  return { code, ...out };
}

describe("main", () => {
  it("echoes what it was given in a refusal as data, not as orders to the terminal", async () => {
    const refused = await mainWith([ALL_ATTACKS]);
    expect(refused.code).toBe(EXIT.usage);
    expect(refused.stderr).toContain('Unknown command "\\u001b]52;c;');
    expect(steeringCharacters(refused.stderr + refused.stdout, true)).toEqual([]);
  });
});
