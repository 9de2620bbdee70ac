/**
 * The product's three examples, verbatim (fixtures/examples), run the way a user runs them: compiled by
 * TypeScript (Node 22 does not parse `using`), in a Node process of their own, with only the agent id
 * and WORKSHOP_URL / WORKSHOP_TOKEN from outside. Each script must also exit by itself.
 */

import { execFile } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { connectNewWorkspace, gadget, workshopUrl } from "./helpers.ts";

const runNode = promisify(execFile);
const examples = new URL("./fixtures/examples/", import.meta.url);
const scratch = new URL("./tmp/examples/", import.meta.url);

const example = (name: string): string => readFileSync(new URL(name, examples), "utf8");

/** Compiles a script as a user's TypeScript build would (ES2022 downlevels `using`) and writes it beside e2e. */
function compile(name: string, source: string): string {
  const { outputText, diagnostics } = ts.transpileModule(source, {
    compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext },
    reportDiagnostics: true,
  });
  expect(diagnostics ?? []).toEqual([]);
  mkdirSync(scratch, { recursive: true });
  const file = new URL(name, scratch);
  writeFileSync(file, outputText);
  return fileURLToPath(file);
}

let agentId = "";
let token = "";

beforeAll(async () => {
  const connected = await connectNewWorkspace();
  using client = connected.client;
  token = connected.token;
  const session = client.getSession();
  const draft = await session.createDraft({ files: gadget(example("echo-agent.ts"), { name: "echo" }) });
  ({ agentId } = await session.publishDraft(draft.id));
});

const environment = () => ({ ...process.env, WORKSHOP_URL: workshopUrl(), WORKSHOP_TOKEN: token, AGENT_ID: agentId });

describe("the product's examples, verbatim", () => {
  it("runs the echo agent as written", async () => {
    using client = (await connectNewWorkspace()).client;
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadget(example("echo-agent.ts")) });
    const outcome = await session.runDraft(draft.id, { input: "hi" });
    expect(outcome).toMatchObject({ status: "ok", result: "Echo: hi" });
  });

  it("invokes the agent from a backend, logs one line, and the script exits without a dispose", async () => {
    const script = compile(
      "execute-agent.mjs",
      `${example("execute-agent.ts")}
const result = await executeAgent(process.env.AGENT_ID ?? "", { input: "from a backend" });
console.log(JSON.stringify({ returned: result }));
`,
    );

    // The example never disposes its client: the process must still end on its own.
    const { stdout } = await runNode(process.execPath, [script], { env: environment(), timeout: 20_000 });

    const lines = stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ level: "info", msg: "Agent executed", agentId, result: "Echo: from a backend" }),
    );
    expect(lines.at(-1)).toEqual({ returned: "Echo: from a backend" });
  });

  it("disposes a session stub with `using` and the client goes on working", async () => {
    const script = compile(
      "dispose-session.mjs",
      `import { createRpcClient } from "@gadgets/workshop-shared";
const client = createRpcClient();
const handedOut = [];
const getSession = client.getSession;
client.getSession = () => {
  const stub = getSession();
  handedOut.push(stub);
  return stub;
};
{
${example("dispose-session.ts")}
}
const disposed = await handedOut[0].listDrafts().then(() => "still usable", (error) => error.message);
const drafts = await client.getSession().listDrafts();
const echoed = await client.getAgent(process.env.AGENT_ID ?? "").run({ input: "after dispose" });
console.log(JSON.stringify({ disposed, drafts: drafts.length, echoed }));
`,
    );

    const { stdout } = await runNode(process.execPath, [script], { env: environment(), timeout: 20_000 });

    const report = JSON.parse(stdout.trim()) as { disposed: string; drafts: number; echoed: string };
    expect(report.disposed).toMatch(/disposed/);
    expect(report.drafts).toBe(1);
    expect(report.echoed).toBe("Echo: after dispose");
  });
});
