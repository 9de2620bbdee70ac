/**
 * Snippets the editor suggests in a gadget's code: the gadget contract itself (the default export
 * with `run(payload, env)`), so a newcomer types `gadget` and gets a runnable skeleton.
 * Plain data; the Monaco view turns them into completion items.
 */

export interface GadgetSnippet {
  label: string;
  detail: string;
  documentation: string;
  /** Monaco snippet syntax: `$0` marks where the cursor ends up. */
  body: string;
}

export const GADGET_SNIPPETS: readonly GadgetSnippet[] = [
  {
    label: "gadget",
    detail: "The gadget contract: export default { run(payload, env) }",
    documentation:
      "A gadget's entry file exports an object with `run(payload, env)`. `payload` is the JSON the caller sends; `env` holds only what the manifest grants. The value it returns is the run's result.",
    body: [
      "export default {",
      "\tasync run(payload: { input: string }, env: GadgetEnv) {",
      "\t\t$0",
      "\t\treturn payload;",
      "\t},",
      "} satisfies Gadget;",
    ].join("\n"),
  },
  {
    label: "run",
    detail: "The run method of the gadget contract",
    documentation: "`run(payload, env)`: called once per run; may be async.",
    body: ["async run(payload: unknown, env: GadgetEnv) {", "\t$0", "},"].join("\n"),
  },
];
