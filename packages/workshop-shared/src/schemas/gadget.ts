/** A gadget on the wire: its files, their paths, and the manifest (`gadget.json`) with its grants. */

import * as v from "valibot";
import { MANIFEST_PATH } from "../wire-basics.ts";
import {
  MAX_DESCRIPTION_LENGTH,
  MAX_FETCH_HOSTS,
  MAX_FILE_BYTES,
  MAX_FILES,
  MAX_GADGET_BYTES,
  MAX_NAME_LENGTH,
  MAX_PATH_DEPTH,
  MAX_PATH_LENGTH,
} from "../limits.ts";
import { checkSchemaDocument, type SchemaField } from "../json-schema.ts";
import { hasTextControls } from "../text-controls.ts";
import { byteLength, jsonValue } from "./json.ts";
import { boundedList, shape, strictShape } from "./objects.ts";
import { FetchHeaderGrantsSchema, SecretGrantsSchema, secretGrantsProblem } from "./secret-grants.ts";
import { DependenciesSchema } from "./packages.ts";
import { GadgetTriggersSchema } from "./triggers.ts";

/** Source files the isolate can load as modules. */
export const MODULE_EXTENSIONS = [".ts", ".js", ".mjs"] as const;
/** Other files a gadget may carry (docs, data). */
export const DATA_EXTENSIONS = [".json", ".md", ".txt"] as const;
const EXTENSIONS = [...MODULE_EXTENSIONS, ...DATA_EXTENSIONS];

export function isModulePath(path: string): boolean {
  return MODULE_EXTENSIONS.some((ext) => path.endsWith(ext));
}

const SEGMENT = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
const NOT_A_PATH = "A file path must be a non-empty string.";

/** A relative path made of plain segments: no `..`, no leading `/`, no hidden files, known extension. */
export const GadgetPathSchema = v.pipe(
  v.string(NOT_A_PATH),
  v.minLength(1, NOT_A_PATH),
  v.maxLength(
    MAX_PATH_LENGTH,
    (issue) => `File path "${issue.input.slice(0, 40)}…" is longer than ${MAX_PATH_LENGTH} characters.`,
  ),
  v.check(
    (path) => path.split("/").length - 1 <= MAX_PATH_DEPTH,
    (issue) => `File path "${issue.input}" is nested deeper than ${MAX_PATH_DEPTH} folders.`,
  ),
  v.check(
    (path) => path.split("/").every((segment) => SEGMENT.test(segment) && !segment.includes("..")),
    (issue) =>
      `File path "${issue.input}" is not allowed: use letters, digits, "_", "-" and "." in each part, like "lib/util.ts".`,
  ),
  v.check(
    (path) => EXTENSIONS.some((ext) => path.endsWith(ext)),
    (issue) => `File "${issue.input}" has an unsupported type; use one of ${EXTENSIONS.join(" ")}.`,
  ),
);

/** One source file of a gadget. */
export const GadgetFileSchema = v.pipe(
  shape(
    {
      /** Relative: `index.ts`, `lib/util.ts`, `gadget.json`. */
      path: GadgetPathSchema,
      content: v.optional(v.unknown()),
    },
    { notObject: "Each file must be an object { path, content }." },
  ),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const { path, content } = dataset.value;
    if (typeof content === "string") return { path, content };
    addIssue({ message: `File "${path}" has no text content.` });
    return NEVER;
  }),
);

type File = v.InferOutput<typeof GadgetFileSchema>;

/** What is wrong with a gadget's files taken together: duplicates, sizes, a missing manifest. */
function filesProblem(files: readonly File[]): string | undefined {
  const seen = new Set<string>();
  let total = 0;
  for (const file of files) {
    // Case-insensitive: `Index.ts` and `index.ts` are one file on some of the disks a gadget lands on.
    const key = file.path.toLowerCase();
    if (seen.has(key)) return `File "${file.path}" appears twice.`;
    seen.add(key);
    const size = byteLength(file.content);
    if (size > MAX_FILE_BYTES)
      return `File "${file.path}" is ${size} bytes; the limit is ${MAX_FILE_BYTES} bytes per file.`;
    total += size;
  }
  if (total > MAX_GADGET_BYTES)
    return `The gadget's files add up to ${total} bytes; the limit is ${MAX_GADGET_BYTES} bytes.`;
  // The exact path: a `Gadget.json` is no manifest, though it would take the manifest's place on some disks.
  if (!files.some((file) => file.path === MANIFEST_PATH))
    return `A gadget needs a manifest file "${MANIFEST_PATH}" with at least { "name", "entry" }.`;
  return undefined;
}

/** The files of a gadget: valid paths, no duplicates, within the size limits, with a manifest. */
export const GadgetFilesSchema = v.pipe(
  boundedList(GadgetFileSchema, MAX_FILES, {
    notList: "files must be an array of { path, content }.",
    tooLong: (length) => `A gadget has at most ${MAX_FILES} files; this one has ${length}.`,
  }),
  v.rawCheck<File[]>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = filesProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

const HOST = /^[a-z0-9]([a-z0-9.-]{0,251}[a-z0-9])?(:[0-9]{1,5})?$/;
const hostMessage = (issue: v.BaseIssue<unknown>) =>
  `Fetch grant host ${typeof issue.input === "string" ? JSON.stringify(issue.input) : issue.received} is not valid: write a host name like "api.example.com" or "127.0.0.1:8080" (no scheme, path or wildcard).`;

/** A host grant: `example.com` or `example.com:8080`, lower case, no scheme, no path, no wildcard. */
export const HostSchema = v.pipe(v.string(hostMessage), v.regex(HOST, hostMessage));

const GrantsShape = strictShape(
  {
    /** Outbound HTTP to exactly these hosts (`example.com`, `127.0.0.1:8080`). */
    fetch: v.optional(
      v.pipe(
        shape(
          {
            hosts: boundedList(HostSchema, MAX_FETCH_HOSTS, {
              notList: '"grants.fetch" must be { "hosts": ["api.example.com"] }.',
              tooLong: (length) => `"grants.fetch.hosts" lists ${length} hosts; the limit is ${MAX_FETCH_HOSTS}.`,
            }),
            /** Headers the gatekeeper adds to requests for a granted host, secrets filled in (never seen by the gadget). */
            headers: v.optional(FetchHeaderGrantsSchema),
          },
          { notObject: '"grants.fetch" must be { "hosts": ["api.example.com"] }.' },
        ),
        v.rawCheck<{ hosts: string[]; headers?: Record<string, Record<string, string>> | undefined }>(
          ({ dataset, addIssue }) => {
            if (!dataset.typed) return;
            const host = Object.keys(dataset.value.headers ?? {}).find((name) => !dataset.value.hosts.includes(name));
            if (host !== undefined)
              addIssue({
                message: `"grants.fetch.headers" names ${JSON.stringify(host.slice(0, 80))}, which is not in "grants.fetch.hosts": headers go only to a granted host, written exactly as it is there.`,
              });
          },
        ),
      ),
    ),
    /** A small key-value store scoped to (workspace, gadget). */
    kv: v.optional(v.boolean('"grants.kv" must be true or false.')),
    /** Calls to other published agents of the same workspace. */
    catalog: v.optional(v.boolean('"grants.catalog" must be true or false.')),
    /** Workspace secrets by name, as `env.secrets.NAME` (the workspace's own runs only: shares and embeds get none). */
    secrets: v.optional(SecretGrantsSchema),
  },
  {
    notObject: '"grants" must be an object like { "fetch": { "hosts": [] }, "kv": true }.',
    unknownKey: (key) => `Unknown grant "${key}": the grants are "fetch", "kv", "catalog" and "secrets".`,
  },
);

/** The grants a gadget asks for in its manifest. Only what is listed here reaches `env`. */
export const GadgetGrantsSchema = v.pipe(
  GrantsShape,
  v.rawCheck<v.InferOutput<typeof GrantsShape>>(({ dataset, addIssue }) => {
    if (!dataset.typed) return;
    const problem = secretGrantsProblem(dataset.value);
    if (problem) addIssue({ message: problem });
  }),
);

/** A JSON Schema (draft 2020-12) a manifest declares for what `run` takes or returns; see `checkSchemaDocument`. */
/* @__NO_SIDE_EFFECTS__ */
function schemaDocument(field: SchemaField) {
  return v.pipe(
    v.unknown(),
    v.rawTransform(({ dataset, addIssue, NEVER }) => {
      const checked = checkSchemaDocument(dataset.value, field);
      if (checked.ok) return checked.value;
      addIssue({ message: checked.error });
      return NEVER;
    }),
  );
}

const NAME = `"name" must be a non-empty string of at most ${MAX_NAME_LENGTH} characters.`;
const NAME_CONTROLS =
  '"name" must not hold control characters or bidi marks (U+200E, U+200F, U+202A to U+202E, U+2066 to U+2069): it is shown in titles, pages and command lines.';
const ENTRY = `"entry" must name the gadget's entry module, like "index.ts".`;
const DESCRIPTION = `"description" must be a string of at most ${MAX_DESCRIPTION_LENGTH} characters.`;

/**
 * `gadget.json` as parsed JSON: what the gadget is, where it starts and what it may use. Messages leave
 * out the file's name; `checkManifest` puts it in front. That the entry is one of the files is checked
 * there too, against the files.
 */
export const GadgetManifestSchema = shape(
  {
    name: v.pipe(
      v.string(NAME),
      v.check((name) => name.trim() !== "", NAME),
      v.maxLength(MAX_NAME_LENGTH, NAME),
      v.check((name) => !hasTextControls(name), NAME_CONTROLS),
      v.trim(),
    ),
    /** The entry module, relative path of a `.ts` or `.js` file whose default export has `run`. */
    entry: v.pipe(v.string(ENTRY), v.check(isModulePath, ENTRY)),
    description: v.optional(v.pipe(v.string(DESCRIPTION), v.maxLength(MAX_DESCRIPTION_LENGTH, DESCRIPTION))),
    exampleInput: v.optional(jsonValue("exampleInput")),
    grants: v.optional(GadgetGrantsSchema, {}),
    /** What `run`'s payload must be: checked before any of the gadget's code runs. */
    inputSchema: v.optional(schemaDocument("inputSchema")),
    /** What `run` must return: checked on every result. */
    outputSchema: v.optional(schemaDocument("outputSchema")),
    /** What makes the published agent run on its own: an HTTP endpoint, schedules. */
    triggers: v.optional(GadgetTriggersSchema),
    /** npm packages the code imports, name → semver range; the exact tree is in `gadget.lock.json`. */
    dependencies: v.optional(DependenciesSchema),
  },
  { notObject: 'the file must hold an object like { "name": "echo", "entry": "index.ts" }.' },
);
