/**
 * The TypeScript declaration of `agents` that Code Mode's code is written against, made from each
 * agent's schemas: what the MCP `run_code` tool's description carries and `codeModeTypes()` answers.
 */

import { agentCallTypes, agentDoc, fitInBudget, leftNames, propertyKey } from "@gadgets/workshop-shared/agent-types";
import type { AgentSummary } from "@gadgets/workshop-shared/api";
import { MAX_CODE_MODE_TYPES_CHARS } from "@gadgets/workshop-shared/limits";

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

function member(agent: AgentSummary): string {
  const { input, result } = agentCallTypes(agent);
  const parameter = input === undefined ? "input?: unknown" : `input: ${input}`;
  return `  /** ${agentDoc(agent)} */\n  ${propertyKey(agent.name)}(${parameter}): Promise<${result ?? "unknown"}>;`;
}

const HEADER = `/**
 * The published agents you may call. Each call runs the agent (with its own grants and limits) and
 * resolves with its result, or rejects with an Error that says what failed.
 */
declare const agents: {`;

/** The declaration, every agent in name order; past the size cap, the rest are named in a comment. */
export function codeModeDeclaration(agents: readonly AgentSummary[]): string {
  const { fitted, left } = fitInBudget(agents, member, MAX_CODE_MODE_TYPES_CHARS - HEADER.length);
  if (left.length > 0)
    fitted.push(
      `  // ${left.length} more agents, declared without types: ${leftNames(left)}\n  [name: string]: (input?: unknown) => Promise<unknown>;`,
    );
  return `${HEADER}\n${fitted.join("\n")}\n};\n`;
}

/** The declaration with the example below it in a comment, as `codeModeTypes` answers them (a valid .d.ts). */
export function codeModeTypesText(agents: readonly AgentSummary[]): string {
  // An agent's name may hold "*/", which would end the comment early.
  return `${codeModeDeclaration(agents)}\n/*\n${codeModeExample(agents).replaceAll("*/", "* /")}\n*/\n`;
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
