import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { connectNewWorkspace, ECHO_SOURCE, gadget, workshopUrl } from "./helpers.ts";

const run = promisify(execFile);
const script = fileURLToPath(new URL("./fixtures/call-agent.ts", import.meta.url));

describe("calling a published agent from a Node backend", () => {
  it("runs the README example verbatim in a separate Node process", async () => {
    const { client, token } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({ files: gadget(ECHO_SOURCE, { name: "echo" }) });
    const { agentId } = await session.publishDraft(draft.id);

    const { stdout } = await run(process.execPath, [script, agentId, JSON.stringify({ input: "hi" })], {
      env: { ...process.env, WORKSHOP_URL: workshopUrl(), WORKSHOP_TOKEN: token },
      timeout: 20_000,
    });

    expect(JSON.parse(stdout.trim())).toEqual({ result: "Echo: hi" });
  });

  it("reports a failed run as a rejected promise that says what happened and where", async () => {
    const { client, token } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({
      files: gadget(`export default {\n  async run() {\n    throw new RangeError("no input");\n  },\n};\n`),
    });
    const { agentId } = await session.publishDraft(draft.id);

    const failure = await run(process.execPath, [script, agentId, "{}"], {
      env: { ...process.env, WORKSHOP_URL: workshopUrl(), WORKSHOP_TOKEN: token },
      timeout: 20_000,
    }).then(
      () => undefined,
      (error: { stderr: string }) => error.stderr,
    );

    expect(failure).toContain("RangeError: no input");
    expect(failure).toContain("index.ts:3:");
  });
});
