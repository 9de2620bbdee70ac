/**
 * The arguments of the RPC methods (`api.ts`): ids and tokens, run options, callbacks, draft input,
 * settings and publish options. Optional arguments follow one rule: left out, undefined and null all
 * mean none (`optionalArgument`).
 */

import * as v from "valibot";
import {
  MAX_AGENT_REF_LENGTH,
  MAX_FETCH_HOSTS,
  MAX_ID_LENGTH,
  MAX_LIST_LIMIT,
  MAX_RUN_TIMEOUT_MS,
  MAX_TOKEN_LENGTH,
} from "../limits.ts";
import { GadgetFilesSchema, HostSchema } from "./gadget.ts";
import { boundedList, optionalArgument, shape, strictShape } from "./objects.ts";

/** An id the Workshop handed out (base64url); anything else is refused before any lookup. `what` names it. */
/* @__NO_SIDE_EFFECTS__ */
export function idSchema(what: string) {
  const message = `Invalid ${what}: expected the id string the Workshop gave you (letters, digits, _ and -).`;
  return v.pipe(v.string(message), v.maxLength(MAX_ID_LENGTH, message), v.regex(/^[A-Za-z0-9_-]+$/, message));
}

export const DraftIdSchema = idSchema("draft id");
export const RunIdSchema = idSchema("run id");
export const AgentIdSchema = idSchema("agent id");
/** A share's or run record's id, from its link. */
export const LinkIdSchema = idSchema("link");

const TOKEN_MESSAGE =
  "Invalid workspace token: it should look like gw_… (46 characters). Create a workspace with createWorkspace(), or check WORKSHOP_TOKEN.";
/** A workspace token: `gw_` and 43 base64url characters (256 bits). */
export const WorkspaceTokenSchema = v.pipe(
  v.string(TOKEN_MESSAGE),
  v.maxLength(MAX_TOKEN_LENGTH, TOKEN_MESSAGE),
  v.regex(/^gw_[A-Za-z0-9_-]{43}$/, TOKEN_MESSAGE),
);

const AGENT_REF_MESSAGE = "An agent reference must be its id or name, optionally with @version (like echo@2).";
/** `id`, `id@N`, `name` or `name@N` of a published agent, with its base and version (none: the latest). */
export const AgentRefSchema = v.pipe(
  v.string(AGENT_REF_MESSAGE),
  v.minLength(1, AGENT_REF_MESSAGE),
  v.maxLength(MAX_AGENT_REF_LENGTH, AGENT_REF_MESSAGE),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const ref = dataset.value;
    const at = ref.lastIndexOf("@");
    const base = at > 0 ? ref.slice(0, at) : ref;
    const versionText = at > 0 ? ref.slice(at + 1) : undefined;
    if (versionText === undefined) return { ref, base, version: undefined };
    if (/^[1-9][0-9]{0,8}$/.test(versionText)) return { ref, base, version: Number(versionText) };
    addIssue({ message: `Invalid agent version in "${ref}": use a positive whole number, like ${base}@2.` });
    return NEVER;
  }),
);

/** A run's wall-clock limit, whether asked for one run or set for a workspace; `name` is the field's. */
/* @__NO_SIDE_EFFECTS__ */
export function timeoutMsSchema(name: string) {
  const message = `${name} must be a whole number of milliseconds from 1 to ${MAX_RUN_TIMEOUT_MS} (the server's maximum).`;
  return v.pipe(v.number(message), v.integer(message), v.minValue(1, message), v.maxValue(MAX_RUN_TIMEOUT_MS, message));
}

/** One run's wall-clock limit (RunOptions.timeoutMs). */
export const RunTimeoutMsSchema = timeoutMsSchema("timeoutMs");

/** Options of one run; keys it does not know are ignored. */
export const RunOptionsSchema = optionalArgument(
  shape(
    {
      /** Wall-clock limit for this run, within the server's maximum; defaults to the workspace's setting. */
      timeoutMs: v.optional(RunTimeoutMsSchema),
    },
    { notObject: "Run options must be an object like { timeoutMs: 5000 } (or left out)." },
  ),
);

/** A callback argument that may be left out; `name` is the parameter's. */
/* @__NO_SIDE_EFFECTS__ */
export function callbackSchema<F>(name: string) {
  return optionalArgument(
    v.custom<F>((value) => typeof value === "function", `${name} must be a function (or left out).`),
  );
}

/**
 * A draft's files as `createDraft` takes them. Left out or null reads as `{}`, so the message names the
 * missing `files`.
 */
export const CreateDraftInputSchema = v.nullish(
  shape({ files: GadgetFilesSchema }, { notObject: "createDraft takes an object { files: [{ path, content }] }." }),
  {},
);

const BASE_VERSION = "baseVersion must be the draft version your edit started from (a positive whole number).";
/** An edit as `saveDraft` takes it; left out or null reads as `{}` (as for createDraft). */
export const SaveDraftInputSchema = v.nullish(
  shape(
    {
      /** The version this edit was based on; a save based on an older version is a conflict. */
      baseVersion: v.pipe(v.number(BASE_VERSION), v.integer(BASE_VERSION), v.minValue(1, BASE_VERSION)),
      files: GadgetFilesSchema,
    },
    { notObject: "saveDraft takes an object { baseVersion, files }." },
  ),
  {},
);

/** Per-workspace settings as `updateSettings` takes them: any of them, and nothing else. */
export const SettingsChangesSchema = strictShape(
  {
    /** Default wall-clock limit of a run in this workspace (1 ms up to the server's maximum). */
    runTimeoutMs: v.optional(timeoutMsSchema("runTimeoutMs")),
    /** The workspace's policy: the only hosts any manifest here may be granted for fetch (null: no cap). */
    fetchHosts: v.optional(
      v.nullable(
        boundedList(HostSchema, MAX_FETCH_HOSTS, {
          notList: `fetchHosts must be null (no cap) or a list of at most ${MAX_FETCH_HOSTS} hosts.`,
          tooLong: () => `fetchHosts must be null (no cap) or a list of at most ${MAX_FETCH_HOSTS} hosts.`,
        }),
      ),
    ),
  },
  {
    notObject: "updateSettings takes an object like { runTimeoutMs: 5000 }.",
    unknownKey: (key) => `Unknown setting "${key}"; the settings are: runTimeoutMs, fetchHosts.`,
  },
);

/** Options of `publishDraft`; keys it does not know are ignored. */
export const PublishOptionsSchema = optionalArgument(
  shape(
    {
      /** Publish even when the tests fail (or the test file is invalid); the version records it. */
      overrideTests: v.optional(v.boolean("overrideTests must be true or false.")),
    },
    { notObject: "publishDraft options must be an object like { overrideTests: true } (or left out)." },
  ),
);

const LIMIT = `limit must be a whole number from 1 to ${MAX_LIST_LIMIT}.`;
/** How many rows a list call returns; 50 when left out. */
export const ListLimitSchema = v.nullish(
  v.pipe(v.number(LIMIT), v.integer(LIMIT), v.minValue(1, LIMIT), v.maxValue(MAX_LIST_LIMIT, LIMIT)),
  50,
);
