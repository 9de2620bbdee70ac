/**
 * Code Mode: the code an LLM (or a person) writes — the body of an async function with `agents` in
 * scope — made into an ordinary gadget, so it runs, streams, records and traces like any other run.
 * The gadget's only grant is the catalog: each `agents.<name>(input)` is a nested run of that agent with
 * the agent's own grants and the catalog's limits.
 */

import type { GadgetFile } from "@gadgets/workshop-shared/api";

/** The file holding the submitted code: its stack frames name it, line for line. */
export const CODE_FILE = "code.ts";

const MANIFEST = JSON.stringify({
  name: "code",
  entry: "main.ts",
  description: "Code Mode: code sent to run against this workspace's agents.",
  grants: { catalog: true },
});

// `agents` is a proxy so the code's calls reach the catalog by name without the file depending on
// which agents exist; `then` is refused so `await agents` is not mistaken for a promise.
const MAIN = `import submitted from "./${CODE_FILE}";

export default {
  async run(_input: unknown, env: { catalog: { get(ref: string): { run(input?: unknown): Promise<unknown> } } }) {
    const agents = new Proxy(Object.create(null), {
      get(_target, name) {
        if (typeof name !== "string" || name === "then") return undefined;
        return (input?: unknown) => env.catalog.get(name).run(input);
      },
    });
    return submitted(agents);
  },
};
`;

/**
 * The gadget that runs `code`. The function's head shares the code's first line, so a frame at
 * `code.ts:N` is line N of what was sent.
 */
export function codeModeFiles(code: string): GadgetFile[] {
  return [
    { path: "gadget.json", content: MANIFEST },
    { path: "main.ts", content: MAIN },
    { path: CODE_FILE, content: `export default async function (agents) { ${code}\n}\n` },
  ];
}
