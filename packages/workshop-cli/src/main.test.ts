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

  it("lists every exit code of the table in --help, each once", async () => {
    const help = await mainWith(["--help"]);
    expect(help.code).toBe(EXIT.ok);
    const listed = help.stdout.slice(help.stdout.indexOf("Exit codes:")).replaceAll("\n", " ");
    for (const code of Object.values(EXIT)) expect(listed.match(new RegExp(`(^|, |: )${code} `, "g"))).toHaveLength(1);
    expect(help.stdout).toContain("9 a test case failed");
  });
});
