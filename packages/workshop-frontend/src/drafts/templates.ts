import type { GadgetFile } from "@gadgets/workshop-shared";

export interface DraftTemplate {
  id: string;
  title: string;
  description: string;
  files: (name: string) => GadgetFile[];
  examplePayload: unknown;
}

const manifest = (name: string, description: string, exampleInput: unknown): GadgetFile => ({
  path: "gadget.json",
  content: `${JSON.stringify({ name, entry: "index.ts", description, exampleInput, grants: {} }, null, 2)}\n`,
});

/** What "New draft" offers: each runs as it is, and shows one thing the Workshop does. */
export const TEMPLATES: DraftTemplate[] = [
  {
    id: "echo",
    title: "Echo",
    description: "The smallest gadget: returns what it is given.",
    examplePayload: { input: "hello" },
    files: (name) => [
      manifest(name, "Returns its input.", { input: "hello" }),
      {
        path: "index.ts",
        content: `export default {
  async run(payload: { input: string }, env: GadgetEnv) {
    console.log("got", payload);
    return \`Echo: \${payload.input}\`;
  },
};
`,
      },
    ],
  },
  {
    id: "loop",
    title: "Loop with logs",
    description: "Logs while it works, so you can watch the console stream.",
    examplePayload: { steps: 5 },
    files: (name) => [
      manifest(name, "Counts with a pause between steps.", { steps: 5 }),
      {
        path: "index.ts",
        content: `const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export default {
  async run({ steps }: { steps: number }, env: GadgetEnv) {
    for (let step = 1; step <= steps; step++) {
      console.info(\`step \${step} of \${steps}\`, { at: new Date(), squares: new Map([[step, step * step]]) });
      await sleep(200);
    }
    return { done: steps };
  },
};
`,
      },
    ],
  },
  {
    id: "async",
    title: "Async work",
    description: "Runs work in parallel and handles a failure.",
    examplePayload: { words: ["gadget", "ok", "workshop", "isolate"] },
    files: (name) => [
      manifest(name, "Scores words in parallel.", { words: ["gadget", "ok", "workshop", "isolate"] }),
      {
        path: "index.ts",
        content: `import { score } from "./score";

export default {
  async run({ words }: { words: string[] }, env: GadgetEnv) {
    const results = await Promise.allSettled(words.map((word) => score(word)));
    for (const result of results) {
      if (result.status === "rejected") console.warn("skipped:", result.reason);
    }
    return results.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []));
  },
};
`,
      },
      {
        path: "score.ts",
        content: `export async function score(word: string): Promise<{ word: string; score: number }> {
  await new Promise((resolve) => setTimeout(resolve, 50 * word.length));
  if (word.length < 3) throw new Error(\`"\${word}" is too short\`);
  return { word, score: new Set(word).size };
}
`,
      },
    ],
  },
];

/** A new draft's files from a template, named after it with a short random tail (`echo-k3x9`). */
export function filesFromTemplate(
  templateId: string,
  tail = Math.random().toString(36).slice(2, 6),
): GadgetFile[] | undefined {
  return TEMPLATES.find((template) => template.id === templateId)?.files(`${templateId}-${tail}`);
}
