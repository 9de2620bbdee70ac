import {
  MAX_LIVE_AGENTS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_WORKSPACE,
} from "@gadgets/workshop-shared/limits";
import { describe, expect, it } from "vitest";
import { LiveObjects } from "./live-objects.ts";

const totals = () => ({ sessions: 0, agents: 0 });

describe("LiveObjects", () => {
  it("holds N objects per connection and refuses the N+1st with what to dispose", () => {
    const stats = totals();
    const live = new LiveObjects(stats);
    for (let i = 0; i < MAX_LIVE_AGENTS_PER_CONNECTION; i++) live.reserve("agents", "ws-a");
    expect(() => live.reserve("agents", "ws-a")).toThrow(/live agent stubs, the limit\. Dispose agent stubs/);
    live.release("agents", "ws-a");
    expect(() => live.reserve("agents", "ws-a")).not.toThrow();
    expect(stats.agents).toBe(MAX_LIVE_AGENTS_PER_CONNECTION);
    live.close();
  });

  it("caps a workspace across connections, without refusing another workspace", () => {
    const connections: LiveObjects[] = [];
    let held = 0;
    while (held < MAX_LIVE_SESSIONS_PER_WORKSPACE) {
      const live = new LiveObjects(totals());
      connections.push(live);
      for (let i = 0; i < MAX_LIVE_SESSIONS_PER_CONNECTION && held < MAX_LIVE_SESSIONS_PER_WORKSPACE; i++, held++)
        live.reserve("sessions", "ws-busy");
    }
    const fresh = new LiveObjects(totals());
    expect(() => fresh.reserve("sessions", "ws-busy")).toThrow(/This workspace has .* live sessions/);
    expect(() => fresh.reserve("sessions", "ws-quiet")).not.toThrow();
    // A closed connection's objects stop counting at once.
    connections[0]?.close();
    expect(() => fresh.reserve("sessions", "ws-busy")).not.toThrow();
    for (const live of [...connections, fresh]) live.close();
  });

  it("releases nothing twice: a dispose after close does not free another connection's slot", () => {
    const stats = totals();
    const live = new LiveObjects(stats);
    live.reserve("sessions", "ws-c");
    live.close();
    live.release("sessions", "ws-c");
    expect(stats.sessions).toBe(0);
    expect(() => live.reserve("sessions", "ws-c")).toThrow(/closed/);
  });
});
