/**
 * The TypeScript text of calls to published agents, made from each agent's latest version's schemas
 * (`schemaToTypeScript`). One owner for both places that type such calls: Code Mode's declaration of
 * `agents` (backend `code-mode/code-mode-types.ts`) and a gadget's `env.catalog.get(name)` —
 * `catalogDeclaration`, which the IDE's editor types and the CLI's `gadget-env.d.ts` carry.
 */

import type { AgentSummary } from "./api.ts";
import { MAX_CATALOG_TYPES_CHARS } from "./limits.ts";
import { schemaToTypeScript } from "./schema-types.ts";

/** What the types are made from: an agent's name, description and its latest version's schemas. */
export type TypedAgent = Pick<AgentSummary, "name" | "description" | "inputSchema" | "outputSchema">;

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A name as a property key: bare when it is an identifier, quoted otherwise. */
export function propertyKey(name: string): string {
  return IDENTIFIER.test(name) ? name : JSON.stringify(name);
}

/** Text for inside a `/** … *\/` comment: one line, no comment end. */
export function commentText(text: string): string {
  return text.replace(/\s+/g, " ").replace(/\*\//g, "* /").trim();
}

/** The agent's description for its doc comment, or a sentence naming it when it has none. */
export function agentDoc(agent: TypedAgent): string {
  return commentText(agent.description || `The agent ${agent.name}.`);
}

/**
 * The agent's input and result types; each is absent when the manifest declares no schema for it, so
 * each caller says what an undeclared one is (`unknown` for Code Mode, `JsonValue` in a gadget).
 */
export function agentCallTypes(agent: TypedAgent, indent = ""): { input?: string; result?: string } {
  return {
    ...(agent.inputSchema ? { input: schemaToTypeScript(agent.inputSchema, { indent }) } : {}),
    ...(agent.outputSchema ? { result: schemaToTypeScript(agent.outputSchema, { indent }) } : {}),
  };
}

/**
 * Agents in name order, each with its text, as many as fit in `budget` characters (each text and its
 * line break); the first that does not fit and all after it are `left`, to be named without types.
 */
export function fitInBudget<Agent extends TypedAgent>(
  agents: readonly Agent[],
  text: (agent: Agent) => string,
  budget: number,
): { fitted: string[]; left: Agent[] } {
  const sorted = [...agents].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const fitted: string[] = [];
  const left: Agent[] = [];
  let size = 0;
  for (const agent of sorted) {
    if (left.length === 0) {
      const member = text(agent);
      if (size + member.length + 1 <= budget) {
        fitted.push(member);
        size += member.length + 1;
        continue;
      }
    }
    left.push(agent);
  }
  return { fitted, left };
}

/** The names of agents left without types, for a `//` comment: one line, cut short. */
export function leftNames(left: readonly TypedAgent[]): string {
  return commentText(left.map((agent) => agent.name).join(", ")).slice(0, 2000);
}

const CATALOG_HEAD = `/** Any JSON value: a payload or result of an agent whose manifest declares no schema for it. */
type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A published agent: \`run\` runs it in its own isolate, with its own grants, and resolves with its result or rejects with an Error that says what failed. */
interface GadgetAgent<Input = JsonValue, Result = JsonValue> {
  run(payload: Input): Promise<Result>;
}

/** This workspace's published agents by name, typed from their latest version's inputSchema and outputSchema (gadget.json). */
interface GadgetAgents {`;

const CATALOG_TAIL = `}

/** Published agents of this workspace, by name or id, optionally \`@version\`. */
interface GadgetCatalog {
  /** The latest version of a published agent, typed from its schemas. */
  get<Name extends keyof GadgetAgents>(agent: Name): GadgetAgents[Name];
  /** Any agent by name or id, optionally pinned (\`"summarize@2"\`): typed loosely, since a pinned version's schemas may differ from the latest's. */
  get(agent: string): GadgetAgent;
}`;

function catalogMember(agent: TypedAgent): string {
  const { input, result } = agentCallTypes(agent, "  ");
  const types = input || result ? `<${input ?? "JsonValue"}, ${result ?? "JsonValue"}>` : "";
  return `  /** ${agentDoc(agent)} */\n  ${propertyKey(agent.name)}: GadgetAgent${types};`;
}

/**
 * The declarations behind `env.catalog`: `get("quotes")` completes the published names and is typed
 * from that agent's schemas; any other reference (an id, a pinned version) is `GadgetAgent` of
 * `JsonValue`. Past `MAX_CATALOG_TYPES_CHARS` of agents, the rest are named in a comment and typed loosely.
 */
export function catalogDeclaration(agents: readonly TypedAgent[]): string {
  const { fitted, left } = fitInBudget(agents, catalogMember, MAX_CATALOG_TYPES_CHARS);
  if (left.length > 0) fitted.push(`  // ${left.length} more agents, typed loosely: ${leftNames(left)}`);
  return `${CATALOG_HEAD}\n${fitted.join("\n")}${fitted.length > 0 ? "\n" : ""}${CATALOG_TAIL}`;
}
