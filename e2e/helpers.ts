import { createRpcClient, type GadgetFile, type RunEvent, type WorkshopClient } from "@gadgets/workshop-shared";
import { inject } from "vitest";

export const workshopUrl = (): string => inject("workshopUrl");
/** The gadget origin of the suite's Workshop, where agents' HTTP endpoints answer. */
export const endpointsUrl = (): string => inject("endpointsUrl");

export interface Connected {
  client: WorkshopClient;
  token: string;
  workspaceId: string;
}

/** A fresh workspace and a client authenticated into it. Dispose the client when done. */
export async function connectNewWorkspace(): Promise<Connected> {
  using bootstrap = createRpcClient({ url: workshopUrl() });
  const { token, workspaceId } = await bootstrap.createWorkspace();
  return { client: createRpcClient({ url: workshopUrl(), token }), token, workspaceId };
}

export function gadget(source: string, manifest: Record<string, unknown> = {}, extra: GadgetFile[] = []): GadgetFile[] {
  return [
    { path: "gadget.json", content: JSON.stringify({ name: "test-gadget", entry: "index.ts", ...manifest }) },
    { path: "index.ts", content: source },
    ...extra,
  ];
}

export const ECHO_SOURCE = `export default {
  async run({ input }: { input: string }) {
    return \`Echo: \${input}\`;
  },
};
`;

/** Collects a run's events in arrival order, with the client-side arrival time. */
export function eventCollector() {
  const events: { event: RunEvent; at: number }[] = [];
  return {
    events,
    listener: (event: RunEvent) => {
      events.push({ event, at: performance.now() });
    },
    ofType<T extends RunEvent["type"]>(type: T): Extract<RunEvent, { type: T }>[] {
      return events
        .map((entry) => entry.event)
        .filter((event): event is Extract<RunEvent, { type: T }> => event.type === type);
    },
  };
}

/** Polls `check` until it returns true or `tries` run out (for effects that cross the wire later). */
export async function eventually(check: () => Promise<boolean>, tries = 50, intervalMs = 20): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return true;
    await new Promise((done) => setTimeout(done, intervalMs));
  }
  return false;
}
