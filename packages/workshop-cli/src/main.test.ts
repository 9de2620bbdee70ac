import { describe, expect, it } from "vitest";
import { EXIT } from "./exit-codes.ts";
import { leadingGlobalOptions, main } from "./main.ts";
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

  it("takes the global options before the command's name too, --help and --version still first-class", async () => {
    for (const argv of [
      ["--url", "nope", "agents"],
      ["--url=nope", "--no-color", "agents", "--json"],
      ["--token", "gw_x", "--color", "--url", "nope", "whoami"],
    ]) {
      const refused = await mainWith(argv);
      expect({ argv, code: refused.code }).toEqual({ argv, code: EXIT.usage });
      // The command read --url: it refused the address, not the option as a command.
      expect(refused.stderr).toContain('"nope" is not a URL');
    }
    const help = await mainWith(["--url", "http://127.0.0.1:9", "--help"]);
    expect(help.code).toBe(EXIT.ok);
    expect(help.stdout).toContain("Exit codes:");
    const commandHelp = await mainWith(["--no-color", "publish", "--help"]);
    expect(commandHelp.stdout).toContain("Usage: gadgets publish");
    const version = await mainWith(["--token", "gw_x", "--version"]);
    expect(version).toMatchObject({ code: EXIT.ok, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    expect((await mainWith(["--frobnicate", "agents"])).stderr).toContain('Unknown command "--frobnicate"');
  });
});

describe("leadingGlobalOptions", () => {
  it("splits off --url, --token and --color/--no-color up to the command's name", () => {
    expect(leadingGlobalOptions(["--url", "U", "--token=T", "--no-color", "run", "x", "--url", "V"])).toEqual({
      globals: ["--url", "U", "--token=T", "--no-color"],
      rest: ["run", "x", "--url", "V"],
    });
    expect(leadingGlobalOptions(["--help"])).toEqual({ globals: [], rest: ["--help"] });
    expect(leadingGlobalOptions(["--no-url", "agents"])).toEqual({ globals: [], rest: ["--no-url", "agents"] });
    expect(leadingGlobalOptions(["agents", "--color"])).toEqual({ globals: [], rest: ["agents", "--color"] });
  });
});
