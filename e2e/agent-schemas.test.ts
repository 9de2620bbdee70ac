import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRpcClient, type RunOutcome } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { newCliUser, runCli } from "./cli-process.ts";
import { connectNewWorkspace, eventCollector, eventually, gadget, workshopUrl } from "./helpers.ts";

/**
 * `inputSchema` and `outputSchema` in gadget.json, held on every path a run takes (drafts, agents,
 * catalog calls, shares, the command line): a payload that breaks the inputSchema ends `invalid`
 * before any of the gadget's code runs, a result that breaks the outputSchema ends `invalid` too, and
 * a published version shows both schemas.
 */

const inputSchema = {
  type: "object",
  required: ["city"],
  additionalProperties: false,
  properties: { city: { type: "string", description: "Where" }, days: { type: "integer", maximum: 7 } },
};
const outputSchema = {
  type: "object",
  required: ["tempC"],
  properties: { tempC: { type: "number" }, runsBefore: { type: "integer" } },
};

/** Logs and counts each run in kv (so a run that never started leaves no count), and answers badly for "Nowhere". */
const WEATHER = `export default {
  async run(input: { city: string }, env: any) {
    console.log("ran for", input.city);
    const before = Number((await env.kv.get("runs")) ?? "0");
    await env.kv.put("runs", String(before + 1));
    return { tempC: input.city === "Nowhere" ? "n/a" : 21, runsBefore: before };
  },
};`;

const weather = (name = "weather") => gadget(WEATHER, { name, grants: { kv: true }, inputSchema, outputSchema });

/** `EXIT.invalid` of packages/workshop-cli/src/exit-codes.ts. */
const EXIT_INVALID = 3;

const BAD_CITY = "The input does not match the gadget's inputSchema: $.city: expected string";

function invalid(outcome: RunOutcome): string | undefined {
  return outcome.status === "error" && outcome.kind === "invalid" ? outcome.message : undefined;
}

describe("typed agent input and output", () => {
  it("checks a draft's payload before its code runs and its result after, and says where", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({ files: weather() });

    expect(await session.runDraft(draft.id, { city: "Paris" })).toMatchObject({
      status: "ok",
      result: { tempC: 21, runsBefore: 0 },
    });

    const collector = eventCollector();
    const refused = await session.runDraft(draft.id, { city: 5, days: 9, extra: true }, collector.listener);
    expect(invalid(refused)).toBe(
      "The input does not match the gadget's inputSchema: $.city: expected string; $.days: expected at most 7; $.extra: unexpected property",
    );
    // None of its code ran: no console line, no kv write.
    expect(collector.ofType("log")).toEqual([]);
    expect(await session.runDraft(draft.id, { city: "Paris" })).toMatchObject({ result: { runsBefore: 1 } });

    const missing = await session.runDraft(draft.id, {});
    expect(invalid(missing)).toBe(
      'The input does not match the gadget\'s inputSchema: $: missing required property "city"',
    );

    // The result is checked too, and the record says what the caller was told.
    const broken = await session.runDraft(draft.id, { city: "Nowhere" });
    expect(invalid(broken)).toBe("The result does not match the gadget's outputSchema: $.tempC: expected number");
    const record = await session.getRun(broken.runId);
    expect(record).toMatchObject({ status: "error", kind: "invalid" });
    expect(record.outcome).toEqual(broken);
    expect((await session.getRun(refused.runId)).outcome).toEqual(refused);

    // A result that breaks the outputSchema is the gadget's problem and is reported; a bad payload is the caller's.
    expect(await eventually(async () => (await session.listErrors()).length > 0)).toBe(true);
    const problems = await session.listErrors();
    expect(problems.map((group) => group.message)).toEqual([
      "The result does not match the gadget's outputSchema: $.tempC: expected number",
    ]);
  });

  it("shows a published version's schemas and holds its runs to them, called directly, by name or from the catalog", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({ files: weather() });
    const published = await session.publishDraft(draft.id);
    expect(published).toMatchObject({ name: "weather", inputSchema, outputSchema });

    const agent = client.getAgent(published.agentId);
    expect(await agent.describe()).toMatchObject({ version: 1, inputSchema, outputSchema });
    const [listed] = await session.listAgents();
    expect(listed).toMatchObject({ name: "weather", inputSchema, outputSchema });

    expect(await agent.run({ city: "Oslo" })).toEqual({ tempC: 21, runsBefore: 0 });
    await expect(client.getAgent("weather").run({ city: 5 })).rejects.toThrow(
      `Agent run failed (invalid): ${BAD_CITY}`,
    );
    await expect(agent.run({ city: "Nowhere" })).rejects.toThrow(
      "Agent run failed (invalid): The result does not match the gadget's outputSchema: $.tempC: expected number",
    );

    // A nested call gets the same outcome, and the agent's code did not run for it.
    const caller = await session.createDraft({
      files: gadget(
        `export default { async run(_: unknown, env: any) {
          try { return await env.catalog.get("weather").run({ city: 5 }); }
          catch (error) { return { refused: (error as Error).message }; }
        } };`,
        { name: "caller", grants: { catalog: true } },
      ),
    });
    const nested = await session.runDraft(caller.id, null);
    expect(nested).toMatchObject({ status: "ok", result: { refused: `weather@1 failed (invalid): ${BAD_CITY}` } });
    expect(await agent.run({ city: "Oslo" })).toEqual({ tempC: 21, runsBefore: 2 });

    // A version without schemas lists none.
    await session.saveDraft(draft.id, {
      baseVersion: draft.version,
      files: gadget(WEATHER, { name: "weather", grants: { kv: true } }),
    });
    const plain = await session.publishDraft(draft.id);
    expect(plain).not.toHaveProperty("inputSchema");
    expect((await session.listAgents())[0]).not.toHaveProperty("outputSchema");
    expect(await client.getAgent(`${published.agentId}@1`).describe()).toMatchObject({ inputSchema });
    expect(await agent.run({ city: 5 })).toMatchObject({ tempC: 21 });
  });

  it("holds a share link's anonymous runs to the inputSchema", async () => {
    const owner = await connectNewWorkspace();
    using _owner = owner.client;
    const session = owner.client.getSession();
    const draft = await session.createDraft({ files: weather("shared-weather") });
    const { shareId } = await session.shareDraft(draft.id, { city: "Rome" });

    using visitor = createRpcClient({ url: workshopUrl() });
    const share = visitor.api.openShare(shareId);
    const collector = eventCollector();
    expect(invalid(await share.run({ city: 5 }, collector.listener))).toBe(BAD_CITY);
    expect(collector.ofType("log")).toEqual([]);
    // Shared runs have no kv: the gadget's own code fails there, which shows it did run this time.
    expect(await share.run({ city: "Rome" })).toMatchObject({ status: "error", kind: "user" });
  });

  it("keeps each workspace's schemas to itself", async () => {
    const a = await connectNewWorkspace();
    const b = await connectNewWorkspace();
    using _a = a.client;
    using _b = b.client;
    const strict = await a.client.getSession().createDraft({ files: weather() });
    await a.client.getSession().publishDraft(strict.id);
    // Same name, same code, no schemas, in another workspace.
    const loose = await b.client.getSession().createDraft({
      files: gadget(WEATHER, { name: "weather", grants: { kv: true } }),
    });
    await b.client.getSession().publishDraft(loose.id);

    await expect(a.client.getAgent("weather").run({ city: 5 })).rejects.toThrow(BAD_CITY);
    expect(await b.client.getAgent("weather").run({ city: 5 })).toMatchObject({ tempC: 21 });
    expect((await b.client.getSession().listAgents())[0]).not.toHaveProperty("inputSchema");
    expect((await a.client.getSession().listAgents())[0]).toMatchObject({ inputSchema });
  });

  it("refuses a manifest whose schema is not valid, naming the field", async () => {
    const { client } = await connectNewWorkspace();
    using _client = client;
    const session = client.getSession();
    const draft = await session.createDraft({
      files: gadget(WEATHER, { grants: { kv: true }, inputSchema: { type: "strng" } }),
    });
    expect(invalid(await session.runDraft(draft.id, { city: "Paris" }))).toBe(
      'gadget.json: "inputSchema" is not a valid JSON Schema: inputSchema.type: expected one of "array", "boolean", "integer", "null", "number", "object", "string".',
    );
    await expect(session.publishDraft(draft.id, { overrideTests: true })).rejects.toThrow(
      '"inputSchema" is not a valid JSON Schema',
    );
  });

  it("gadgets run shows the refusal and exits with the invalid code", async () => {
    const user = newCliUser(workshopUrl());
    expect((await runCli(["login"], user)).code).toBe(0);
    const folder = join(user.cwd, "weather");
    mkdirSync(folder);
    for (const file of weather()) writeFileSync(join(folder, file.path), file.content);

    const refused = await runCli(["run", "weather", "--input", '{"city":5}'], user);
    expect(refused.stderr).toContain(BAD_CITY);
    expect(refused.stderr).not.toContain("ran for");
    expect(refused.code).toBe(EXIT_INVALID);
    const ok = await runCli(["run", "weather", "--input", '{"city":"Paris"}'], user);
    expect(ok.code).toBe(0);
    expect(JSON.parse(ok.stdout)).toEqual({ tempC: 21, runsBefore: 0 });
  });
});
