/** The echo gadget every bench row starts from, and a new workspace that has it published. */

import { createRpcClient, type GadgetFile } from "@gadgets/workshop-shared";

/** The echo's files; `tag` makes the code new (a cold build and isolate) while it still answers alike. */
export const echoFiles = (tag = ""): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "echo", entry: "index.ts" }) },
  {
    path: "index.ts",
    content: `export default { async run({ input }: { input: string }) { return \`Echo${tag}: \${input}\`; } };`,
  },
];

/** A new workspace with a published echo agent, and a client in it. */
export async function publishedEcho(url: string) {
  const boot = createRpcClient({ url });
  const { token } = await boot.createWorkspace();
  boot[Symbol.dispose]();
  const client = createRpcClient({ url, token });
  const session = client.getSession();
  const draft = await session.createDraft({ files: echoFiles() });
  const { agentId } = await session.publishDraft(draft.id);
  return { token, client, session, agentId };
}
