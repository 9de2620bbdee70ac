/**
 * API keys on the wire: the credential `getSession` takes (a workspace token or a key), a key's id, and
 * what `createKey` takes. A key is `gk_`, the workspace's id (22 characters, so the server finds the
 * workspace without a global index; the id alone grants nothing) and 256 random bits (43 characters).
 */

import * as v from "valibot";
import { MAX_AGENTS_PER_API_KEY, MAX_API_KEY_NAME_LENGTH, MAX_TOKEN_LENGTH } from "../limits.ts";
import { AgentRefSchema, idSchema } from "./calls.ts";
import { boundedList, strictShape } from "./objects.ts";

/** What every API key starts with (workspace tokens start with `gw_`), so leaks are easy to scan for. */
export const API_KEY_PREFIX = "gk_";
/** Characters of the workspace id inside a key, right after the prefix. */
export const API_KEY_WORKSPACE_ID_LENGTH = 22;

const KEY_MESSAGE = "Invalid API key: it should look like gk_… (68 characters), as `gadgets keys create` printed it.";
/** An API key: `gk_` and 65 base64url characters (the workspace id, then 256 random bits). */
export const ApiKeySchema = v.pipe(
  v.string(KEY_MESSAGE),
  v.maxLength(MAX_TOKEN_LENGTH, KEY_MESSAGE),
  v.regex(/^gk_[A-Za-z0-9_-]{65}$/, KEY_MESSAGE),
);

// Begins as the token-only message did, so clients that read it still do.
const CREDENTIAL_MESSAGE =
  "Invalid workspace token: it should look like gw_… (46 characters), or an API key like gk_… (68 characters). Create a workspace with createWorkspace(), or check WORKSHOP_TOKEN.";
/** What `getSession` takes: a workspace token (`gw_…`) or an API key (`gk_…`). */
export const SessionCredentialSchema = v.pipe(
  v.string(CREDENTIAL_MESSAGE),
  v.maxLength(MAX_TOKEN_LENGTH, CREDENTIAL_MESSAGE),
  v.regex(/^(?:gw_[A-Za-z0-9_-]{43}|gk_[A-Za-z0-9_-]{65})$/, CREDENTIAL_MESSAGE),
);

/** The id of a key, as `listKeys` and `createKey` answer it (never the key itself). */
export const ApiKeyIdSchema = idSchema("API key id");

const NAME = `A key's name must be 1 to ${MAX_API_KEY_NAME_LENGTH} characters (after trimming), without control characters, like "claude-desktop".`;
const SCOPE = 'scope must be "call" (list and run published agents) or "full" (everything but managing keys).';
const AGENTS = `agents must be a list of 1 to ${MAX_AGENTS_PER_API_KEY} agent ids or names (or left out: all agents).`;

/** One agent a key is limited to: its id or name, never a version (a key runs whole agents). */
const KeyAgentSchema = v.pipe(
  AgentRefSchema,
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { ref, base, version } = dataset.value;
    if (version === undefined) return base;
    addIssue({ message: `A key is limited to agents, not versions: use "${base}" instead of "${ref}".` });
    return NEVER;
  }),
);

/** What `createKey` takes; a key it does not know is refused (a mistyped `agents` must not mean "all"). */
export const CreateKeyInputSchema = strictShape(
  {
    name: v.pipe(
      v.string(NAME),
      v.trim(),
      v.minLength(1, NAME),
      v.maxLength(MAX_API_KEY_NAME_LENGTH, NAME),
      v.regex(/^[^\p{Cc}]*$/u, NAME),
    ),
    scope: v.picklist(["call", "full"], SCOPE),
    agents: v.optional(
      v.nullable(
        v.pipe(
          boundedList(KeyAgentSchema, MAX_AGENTS_PER_API_KEY, { notList: AGENTS, tooLong: () => AGENTS }),
          v.minLength(1, AGENTS),
        ),
      ),
    ),
  },
  {
    notObject: 'createKey takes an object like { name: "claude-desktop", scope: "call" }.',
    unknownKey: (key) => `Unknown field "${key}" of createKey; its fields are: name, scope, agents.`,
  },
);
