/**
 * The MCP endpoint, Code Mode and payload validation, against a warm `agent.run()` over Cap'n Web measured
 * in the same interleaved rounds: an MCP `tools/call` of the echo agent (the official SDK client over real
 * HTTP, with a `call` key), what one MCP request costs without a run, a Code Mode run calling the echo
 * once (over Cap'n Web and through MCP `run_code`), and a run whose manifest has a 20-property
 * inputSchema against the same agent without one.
 */

import { createRpcClient, type GadgetFile, type JsonValue } from "@gadgets/workshop-shared";
import { validateJson } from "@gadgets/workshop-shared/json-schema";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type Row, type Summary, summarize, timeEach, warmUntilStable } from "./stats.ts";

const ECHO = `export default { async run({ input }: { input: string }) { return \`Echo: \${input}\`; } };`;
/** Echo-like, for a payload of many fields: returns one of them, so the run itself is the echo's. */
const FIELD_ECHO = `export default { async run(payload: { name: string }) { return \`Echo: \${payload.name}\`; } };`;
const CODE = 'return await agents.echo({ input: "hi" });';

/** 20 properties, each typed; some required; enums; numbers and lengths with bounds. */
const INPUT_SCHEMA = {
  type: "object",
  properties: {
    name: { type: "string", minLength: 1, maxLength: 64 },
    email: { type: "string", minLength: 3, maxLength: 254 },
    age: { type: "integer", minimum: 0, maximum: 150 },
    score: { type: "number", minimum: 0, maximum: 100 },
    ratio: { type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 },
    count: { type: "integer", minimum: 1, maximum: 1000 },
    amountCents: { type: "integer", minimum: 0, maximum: 100_000_000 },
    threshold: { type: "number", minimum: -1, maximum: 1 },
    retries: { type: "integer", minimum: 0, maximum: 10 },
    priority: { type: "integer", enum: [1, 2, 3] },
    active: { type: "boolean" },
    verified: { type: "boolean" },
    role: { type: "string", enum: ["admin", "editor", "viewer"] },
    plan: { type: "string", enum: ["free", "pro", "team", "enterprise"] },
    currency: { type: "string", enum: ["EUR", "USD", "GBP", "JPY"] },
    locale: { type: "string", enum: ["en", "fr", "de", "ja"] },
    country: { type: "string", minLength: 2, maxLength: 2 },
    timezone: { type: "string", maxLength: 64 },
    note: { type: "string", maxLength: 500 },
    tags: { type: "array", items: { type: "string", maxLength: 32 }, maxItems: 10 },
  },
  required: ["name", "email", "age", "role", "plan", "amountCents", "active"],
  additionalProperties: false,
};
const PAYLOAD = {
  name: "Ada",
  email: "ada@example.com",
  age: 36,
  score: 87.5,
  ratio: 0.25,
  count: 12,
  amountCents: 129_900,
  threshold: -0.5,
  retries: 3,
  priority: 2,
  active: true,
  verified: false,
  role: "editor",
  plan: "team",
  currency: "EUR",
  locale: "fr",
  country: "FR",
  timezone: "Europe/Paris",
  note: "A payload that matches every property of the schema.",
  tags: ["bench", "schema", "twenty"],
} satisfies JsonValue;

const files = (name: string, source: string, manifest: Record<string, unknown> = {}): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name, entry: "index.ts", ...manifest }) },
  { path: "index.ts", content: source },
];

export interface McpBenchOptions {
  url: string;
  /** Samples of each kind, spread over `rounds`. */
  samples: number;
  rounds: number;
}

const ratio = (a: number, b: number) => a / b;
const fmt = (ms: number) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(2));
const times = (r: number, digits = 2) => `${r.toFixed(digits)}×`;
const verdict = (r: number, target: number) => `target ≤ ${target}×: ${r <= target ? "met ✔" : "missed ✘"}`;

/** What one MCP request and one Code Mode run cost beside a warm agent.run(), and what a schema adds. */
export async function measureMcp({ url, samples, rounds }: McpBenchOptions): Promise<{ rows: Row[]; notes: string[] }> {
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  const owner = createRpcClient({ url, token });
  const session = owner.getSession();
  const publish = async (name: string, source: string, manifest?: Record<string, unknown>) => {
    const draft = await session.createDraft({ files: files(name, source, manifest) });
    return (await session.publishDraft(draft.id)).agentId;
  };
  const echoId = await publish("echo", ECHO);
  const typedId = await publish("typed", FIELD_ECHO, { inputSchema: INPUT_SCHEMA });
  const untypedId = await publish("untyped", FIELD_ECHO);
  // The same again: the two agents without a schema, compared, give the noise of the schema's ratio.
  const twinId = await publish("untyped-twin", FIELD_ECHO);
  const bytesId = await publish("same-bytes", FIELD_ECHO, { exampleInput: INPUT_SCHEMA });
  const { key } = await session.createKey({ name: "bench", scope: "call" });
  // The same key over Cap'n Web: what a key's session adds, apart from MCP's HTTP.
  const keyClient = createRpcClient({ url, token: key });
  const mcp = new Client({ name: "workshop-bench", version: "1.0.0" });
  await mcp.connect(
    new StreamableHTTPClientTransport(new URL("/mcp", url), {
      requestInit: { headers: { Authorization: `Bearer ${key}` } },
      // The transport gives every request its one signal, and Node's fetch leaves an abort listener on
      // it per request until that request is garbage collected: thousands of calls pass 1,500 between
      // collections and warn on each. A signal of each request's own, following the transport's, ends
      // with it.
      fetch: (input, init) =>
        fetch(input, { ...init, ...(init?.signal ? { signal: AbortSignal.any([init.signal]) } : {}) }),
    }),
  );

  const echo = owner.getAgent(echoId);
  const keyEcho = keyClient.getAgent(echoId);
  const typed = owner.getAgent(typedId);
  const untyped = owner.getAgent(untypedId);
  const twin = owner.getAgent(twinId);
  const bytes = owner.getAgent(bytesId);
  const expect = (what: string, got: unknown, want: unknown) => {
    if (JSON.stringify(got) !== JSON.stringify(want))
      throw new Error(`${what}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  };
  const health = `${url.replace(/\/$/, "")}/health`;
  const kinds = {
    ping: () => boot.api.ping(),
    run: async () => expect("agent.run()", await echo.run({ input: "hi" }), "Echo: hi"),
    keyRun: async () => expect("agent.run() with a key", await keyEcho.run({ input: "hi" }), "Echo: hi"),
    freshSession: async () => {
      const fresh = createRpcClient({ url, token: key });
      try {
        await fresh.getSession().workspace();
      } finally {
        fresh[Symbol.dispose]();
      }
    },
    // What each stateless MCP request starts from: a connection of its own, with no runner lease yet.
    freshRun: async () => {
      const fresh = createRpcClient({ url, token: key });
      try {
        expect("agent.run() on a new connection", await fresh.getAgent(echoId).run({ input: "hi" }), "Echo: hi");
      } finally {
        fresh[Symbol.dispose]();
      }
    },
    health: async () => expect("GET /health", await (await fetch(health)).json(), { ok: true }),
    mcpPing: () => mcp.ping(),
    mcpList: () => mcp.listTools(),
    mcpCall: async () => {
      const result = await mcp.callTool({ name: "echo", arguments: { input: "hi" } });
      expect("MCP tools/call echo", result.structuredContent, { result: "Echo: hi" });
    },
    code: async () => {
      const outcome = await session.runCode(CODE);
      expect("runCode", outcome.status === "ok" ? outcome.result : outcome, "Echo: hi");
    },
    mcpCode: async () => {
      const result = await mcp.callTool({ name: "run_code", arguments: { code: CODE } });
      expect("MCP run_code", result.structuredContent, { result: "Echo: hi" });
    },
    typed: async () => expect("typed run", await typed.run(PAYLOAD), "Echo: Ada"),
    untyped: async () => expect("untyped run", await untyped.run(PAYLOAD), "Echo: Ada"),
    twin: async () => expect("untyped twin run", await twin.run(PAYLOAD), "Echo: Ada"),
    bytes: async () => expect("same-bytes run", await bytes.run(PAYLOAD), "Echo: Ada"),
  };
  type Kind = keyof typeof kinds;
  const names = Object.keys(kinds) as Kind[];
  // A payload that breaks the schema must be refused: else the typed run would measure no validation.
  const refused = await typed.run({ ...PAYLOAD, age: -1 }).then(
    () => false,
    () => true,
  );
  if (!refused) throw new Error("The typed agent accepted a payload that breaks its inputSchema.");

  const warmUps = {} as Record<Kind, number>;
  // A new connection per call is slow and opens a WebSocket each time: smaller batches.
  for (const kind of names) warmUps[kind] = await warmUntilStable(kinds[kind], kind.startsWith("fresh") ? 50 : 200);
  const taken = Object.fromEntries(names.map((kind) => [kind, [] as number[]])) as Record<Kind, number[]>;
  // The schema's cost is a few per cent at most: its four runs take turns call by call, not block by
  // block, so no drift of the machine lands on one of them alone.
  const paired: Kind[] = ["typed", "untyped", "twin", "bytes"];
  for (let round = 0; round < rounds; round++) {
    for (const kind of names)
      if (!paired.includes(kind)) taken[kind].push(...(await timeEach(samples / rounds, 0, kinds[kind])));
    for (let i = 0; i < samples / rounds; i++)
      for (const kind of paired) {
        const start = performance.now();
        await kinds[kind]();
        taken[kind].push(performance.now() - start);
      }
  }
  const s = Object.fromEntries(names.map((kind) => [kind, summarize(taken[kind])])) as Record<Kind, Summary>;

  // The validation alone, in this process (the same module the Worker runs, on V8 too).
  const checks = 20_000;
  for (let i = 0; i < 2000; i++) validateJson(INPUT_SCHEMA, PAYLOAD);
  const start = performance.now();
  for (let i = 0; i < checks; i++)
    if (!validateJson(INPUT_SCHEMA, PAYLOAD).ok) throw new Error("PAYLOAD breaks INPUT_SCHEMA");
  const validateUs = ((performance.now() - start) * 1000) / checks;

  await mcp.close();
  for (const stub of [echo, keyEcho, typed, untyped, twin, bytes, session]) stub[Symbol.dispose]();
  for (const c of [keyClient, owner, boot]) c[Symbol.dispose]();

  const warm = (kind: Kind) => `warm-up ${warmUps[kind]} batches of ${kind.startsWith("fresh") ? 50 : 200}`;
  const vsRun = (kind: Kind) => ({ p50: ratio(s[kind].median, s.run.median), p99: ratio(s[kind].p99, s.run.p99) });
  const vsPing = (kind: Kind) => times(ratio(s[kind].median, s.ping.median));
  const call = vsRun("mcpCall");
  const code = vsRun("code");
  const schema = ratio(s.typed.median, s.untyped.median);
  const rows: Row[] = [
    {
      name: "MCP block: warm echo agent.run() over Cap'n Web (the reference of the rows below)",
      summary: s.run,
      note: `${vsPing("run")} session ping; ${warm("run")}; ${rounds} rounds, each row in turn`,
    },
    { name: "MCP block: Workshop session ping", summary: s.ping, note: warm("ping") },
    {
      name: "MCP tools/call of the echo agent (SDK client, HTTP, call key)",
      summary: s.mcpCall,
      note: `p50 ${times(call.p50)} agent.run() (${verdict(call.p50, 1.5)}); p99 ${times(call.p99)} (${verdict(call.p99, 1.5)}); ${warm("mcpCall")}`,
    },
    {
      name: "MCP ping (one MCP request, no agent: HTTP, key, SDK server)",
      summary: s.mcpPing,
      note: `${vsPing("mcpPing")} session ping; ${times(vsRun("mcpPing").p50)} agent.run(); ${warm("mcpPing")}`,
    },
    {
      name: "MCP tools/list (ping + the workspace's agents)",
      summary: s.mcpList,
      note: `${vsPing("mcpList")} session ping; ${times(vsRun("mcpList").p50)} agent.run(); ${warm("mcpList")}`,
    },
    {
      name: "HTTP GET /health through the Worker (no MCP, no key)",
      summary: s.health,
      note: `${vsPing("health")} session ping; ${warm("health")}`,
    },
    {
      name: "warm echo agent.run() in a call key's session over Cap'n Web",
      summary: s.keyRun,
      note: `${times(vsRun("keyRun").p50)} agent.run() with the workspace token; ${warm("keyRun")}`,
    },
    {
      name: "a new Cap'n Web connection with the call key, session.workspace() (no run)",
      summary: s.freshSession,
      note: `${times(vsRun("freshSession").p50)} agent.run(); ${warm("freshSession")}`,
    },
    {
      name: "echo agent.run() on a new Cap'n Web connection with the call key (connect, session, run)",
      summary: s.freshRun,
      note: `${times(vsRun("freshRun").p50)} agent.run(); less the row above, the run on a connection with no runner lease nor pool link yet (as in every MCP request): ${fmt(s.freshRun.median - s.freshSession.median)} ms = ${times(ratio(s.freshRun.median - s.freshSession.median, s.run.median))} agent.run(); ${warm("freshRun")}`,
    },
    {
      name: "Code Mode: session.runCode calling agents.echo once (Cap'n Web)",
      summary: s.code,
      note: `p50 ${times(code.p50)} agent.run() (${verdict(code.p50, 2.5)}); p99 ${times(code.p99)}; ${warm("code")}`,
    },
    {
      name: "Code Mode through MCP run_code, calling agents.echo once",
      summary: s.mcpCode,
      note: `p50 ${times(vsRun("mcpCode").p50)} agent.run(); ${times(ratio(s.mcpCode.median, s.mcpCall.median))} MCP tools/call; ${warm("mcpCode")}`,
    },
    {
      name: "warm run, manifest with a 20-property inputSchema, matching payload",
      summary: s.typed,
      note: `${times(schema, 3)} the same agent without a schema (${verdict(schema, 1.05)}); p99 ${times(ratio(s.typed.p99, s.untyped.p99))}; ${warm("typed")}`,
    },
    {
      name: "the same agent and payload without a schema",
      summary: s.untyped,
      note: `${warm("untyped")}; the four schema rows take turns call by call`,
    },
    {
      name: "its twin (the same again, another agent): the noise of the schema's ratio",
      summary: s.twin,
      note: `${times(ratio(s.twin.median, s.untyped.median), 3)} the agent without a schema; ${warm("twin")}`,
    },
    {
      name: "without a schema, the schema's bytes in gadget.json as exampleInput (no validation)",
      summary: s.bytes,
      note: `${times(ratio(s.bytes.median, s.untyped.median), 3)} the agent without a schema; p99 ${times(ratio(s.bytes.p99, s.untyped.p99))}; ${warm("bytes")}`,
    },
  ];
  const notes = [
    `Payload validation alone (validateJson, the 20-property schema and payload, warm, in Node): ${validateUs.toFixed(1)} µs a check = ${((100 * validateUs) / 1000 / s.untyped.median).toFixed(2)} % of the run without a schema.`,
  ];
  return { rows, notes };
}
