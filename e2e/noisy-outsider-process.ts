/**
 * The noisy outsider: a process of its own that hammers a Workshop with unknown tokens, unknown share
 * ids, page loads of links that do not exist and anonymous runs of a shared gadget, over many
 * connections, until it is stopped. It prints its counts as JSON lines so the test can see it worked.
 * Usage: node e2e/noisy-outsider-process.ts <workshop url> <share id>
 */

import { createRpcClient } from "@gadgets/workshop-shared";

const [url, shareId] = process.argv.slice(2);
if (!url || !shareId) throw new Error("usage: noisy-outsider-process.ts <url> <shareId>");

const counts = { tokenMisses: 0, shareMisses: 0, pageMisses: 0, anonymousRuns: 0 };
let stopping = false;
const random = () => crypto.randomUUID().replace(/-/g, "").slice(0, 22);

async function loop(work: () => Promise<void>): Promise<void> {
  while (!stopping) await work().catch(() => undefined);
}

/** A client for one round of work, disposed after it (plain Node has no `using` yet). */
async function withClient(work: (client: ReturnType<typeof createRpcClient>) => Promise<unknown>): Promise<void> {
  const client = createRpcClient({ url });
  try {
    await work(client);
  } finally {
    client[Symbol.dispose]();
  }
}

/** `count` calls at once on one fresh connection. */
const burst = (count: number, call: (client: ReturnType<typeof createRpcClient>) => Promise<unknown>) =>
  withClient((client) => Promise.all(Array.from({ length: count }, () => call(client))));

const times = <T>(n: number, make: () => T): T[] => Array.from({ length: n }, make);

const hammers = [
  ...times(3, () =>
    loop(() =>
      burst(25, (client) =>
        client.api
          .getSession(`gw_${random()}${random().slice(0, 21)}`)
          .workspace()
          .catch(() => void counts.tokenMisses++),
      ),
    ),
  ),
  ...times(3, () =>
    loop(() =>
      burst(25, (client) =>
        client.api
          .openShare(random())
          .snapshot()
          .catch(() => void counts.shareMisses++),
      ),
    ),
  ),
  ...times(3, () =>
    loop(async () => {
      for (const page of ["s", "r", "embed"]) {
        await fetch(`${url}/${page}/${random()}`).then((response) => response.arrayBuffer());
        counts.pageMisses++;
      }
    }),
  ),
  ...times(3, () =>
    loop(() =>
      burst(25, (client) =>
        client.api
          .openShare(shareId)
          .run({ input: "noise" })
          .then(() => void counts.anonymousRuns++),
      ),
    ),
  ),
];

const report = setInterval(() => console.log(JSON.stringify(counts)), 250);
process.on("SIGTERM", async () => {
  stopping = true;
  clearInterval(report);
  await Promise.race([Promise.all(hammers), new Promise((done) => setTimeout(done, 2000))]);
  console.log(JSON.stringify(counts));
  process.exit(0);
});
