/**
 * How runs may be listed: who started a run (`RunVia`) and the filter `listRuns` takes (the invocation
 * log: one agent's runs, started one way; the IDE's Runs of one draft). A filter's key it does not know is refused, so a mistyped
 * field never widens the list to every run.
 */

import * as v from "valibot";
import { MAX_ID_LENGTH, MAX_NAME_LENGTH } from "../limits.ts";
import { optionalArgument, strictShape } from "./objects.ts";

/** Who starts runs: a client over the RPC API, an MCP client, the agent's HTTP endpoint, a schedule. */
export const RUN_VIAS = ["rpc", "mcp", "http", "schedule"] as const;

const VIA = `The filter's "via" must be one of ${RUN_VIAS.map((via) => `"${via}"`).join(", ")} (or left out: runs started any way).`;
export const RunViaSchema = v.picklist(RUN_VIAS, VIA);

const DRAFT = `The filter's "draft" must be a draft's id (1 to ${MAX_ID_LENGTH} characters), or left out: runs of anything.`;

const AGENT_MAX = Math.max(MAX_ID_LENGTH, MAX_NAME_LENGTH);
const AGENT = `The filter's "agent" must be a published agent's id or name (1 to ${AGENT_MAX} characters, no @version), or left out: runs of anything.`;

/**
 * What `listRuns` narrows to: `agent` (its id, or its name: every published agent of that name), `draft`
 * (the runs of that draft's own code, test cases included) and `via`. Left out, undefined or null, the argument and each field mean none.
 */
export const RunListFilterSchema = optionalArgument(
  strictShape(
    {
      agent: v.optional(
        v.nullable(
          v.pipe(
            v.string(AGENT),
            v.minLength(1, AGENT),
            v.maxLength(AGENT_MAX, AGENT),
            // Runs are of whole agents; a version here would be read as part of a name and match nothing.
            v.check((ref) => !/@[0-9]+$/.test(ref), AGENT),
          ),
        ),
      ),
      draft: v.optional(v.nullable(v.pipe(v.string(DRAFT), v.minLength(1, DRAFT), v.maxLength(MAX_ID_LENGTH, DRAFT)))),
      via: v.optional(v.nullable(RunViaSchema)),
    },
    {
      notObject: 'The filter of listRuns must be an object like { agent: "weather", via: "http" } (or left out).',
      unknownKey: (key) => `Unknown field "${key}" of the listRuns filter; its fields are: agent, draft, via.`,
    },
  ),
);
