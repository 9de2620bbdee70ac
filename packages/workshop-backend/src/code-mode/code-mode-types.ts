/**
 * The TypeScript declaration of `agents` that Code Mode's code is written against, made from each
 * agent's schemas: what the MCP `run_code` tool's description carries and `codeModeTypes()` answers.
 */

import type { AgentSummary, JsonSchema } from "@gadgets/workshop-shared/api";
import { MAX_CODE_MODE_TYPES_CHARS } from "@gadgets/workshop-shared/limits";
import { schemaToTypeScript } from "@gadgets/workshop-shared/schema-types";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A name as a property key: bare when it is an identifier, quoted otherwise. */
function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Text for inside a `/** … *\/` comment: one line, no comment end. */
function commentText(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\*\//g, "* /").trim();
}

function typeOf(schema: JsonSchema | undefined): string {
  return schema ? schemaToTypeScript(schema) : "unknown";
}

function member(agent: AgentSummary): string {
  const doc = commentText(agent.description || `The agent ${agent.name}.`);
  const input = agent.inputSchema ? `input: ${typeOf(agent.inputSchema)}` : "input?: unknown";
  return `  /** ${doc} */\n  ${propertyKey(agent.name)}(${input}): Promise<${typeOf(agent.outputSchema)}>;`;
}

const HEADER = `/**
 * The published agents you may call. Each call runs the agent (with its own grants and limits) and
 * resolves with its result, or rejects with an Error that says what failed.
 */
declare const agents: {`;

/** The declaration, every agent in name order; past the size cap, the rest are named in a comment. */
export function codeModeDeclaration(agents: readonly AgentSummary[]): string {
  const sorted = [...agents].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const members: string[] = [];
  let size = HEADER.length;
  const left: string[] = [];
  for (const agent of sorted) {
    const text = member(agent);
    if (left.length === 0 && size + text.length + 1 <= MAX_CODE_MODE_TYPES_CHARS) {
      members.push(text);
      size += text.length + 1;
    } else left.push(agent.name);
  }
  if (left.length > 0)
    members.push(
      `  // ${left.length} more agents, declared without types: ${commentText(left.join(", ")).slice(0, 2000)}\n  [name: string]: (input?: unknown) => Promise<unknown>;`,
    );
  return `${HEADER}\n${members.join("\n")}\n};\n`;
}

/** How to write code for `run_code`, with the first agent as the example. */
export function codeModeExample(agents: readonly AgentSummary[]): string {
  const first = agents[0];
  const call = first
    ? `agents${IDENTIFIER.test(first.name) ? `.${first.name}` : `[${JSON.stringify(first.name)}]`}`
    : "agents.echo";
  return [
    "Write the body of an async function: `agents` is in scope, `await` works, `return` gives the answer, and console.log lines are sent back with it.",
    "Example:",
    `const answer = await ${call}(${first?.inputSchema ? "{ /* its input */ }" : "{}"});`,
    'console.log("got", answer);',
    "return answer;",
  ].join("\n");
}
