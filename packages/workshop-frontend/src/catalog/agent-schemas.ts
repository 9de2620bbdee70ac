/** A published version's input and output schemas as the catalog shows them: a TypeScript type and the JSON Schema. */

import type { AgentSchemas } from "@gadgets/workshop-shared";
import { schemaToTypeScript } from "@gadgets/workshop-shared/schema-types";

export interface SchemaText {
  which: "input" | "output";
  /** The type the schema describes, as TypeScript (`{ city: string; days?: number }`). */
  type: string;
  /** The schema itself, formatted. */
  json: string;
}

/** The catalog shows a type this long at most; the JSON Schema beside it is whole. */
const MAX_TYPE_CHARS = 2000;

/** The version's schemas, input first; none when it declares none (it then takes and returns any JSON). */
export function agentSchemaTexts(agent: AgentSchemas): SchemaText[] {
  const texts: SchemaText[] = [];
  for (const which of ["input", "output"] as const) {
    const schema = which === "input" ? agent.inputSchema : agent.outputSchema;
    if (!schema) continue;
    texts.push({
      which,
      type: schemaToTypeScript(schema, { maxLength: MAX_TYPE_CHARS }),
      json: JSON.stringify(schema, null, 2),
    });
  }
  return texts;
}
