import {
  MAX_LIVE_AGENTS_PER_CONNECTION,
  MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE,
  MAX_LIVE_SESSIONS_PER_CONNECTION,
  MAX_LIVE_SESSIONS_PER_KEY,
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

  it("keeps part of a workspace's sessions for its token: keys hold at most their share", () => {
    const connections: LiveObjects[] = [];
    let countOpen = 0;
    /** One more session (with that key, or the token), on a new connection whenever the last one is full. */
    const open = (keyId?: string) => {
      if (countOpen % MAX_LIVE_SESSIONS_PER_CONNECTION === 0) connections.push(new LiveObjects(totals()));
      connections.at(-1)?.reserve("sessions", "ws-keys", keyId);
      countOpen++;
    };
    // Two keys, each under its own cap, fill the keys' share.
    for (let i = 0; i < MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE; i++)
      open(i < MAX_LIVE_KEY_SESSIONS_PER_WORKSPACE / 2 ? "k1" : "k2");
    expect(() => new LiveObjects(totals()).reserve("sessions", "ws-keys", "k3")).toThrow(
      /API keys hold 96 live sessions of this workspace, the most they may/,
    );
    // The token's sessions take the rest, up to the workspace's cap.
    while (countOpen < MAX_LIVE_SESSIONS_PER_WORKSPACE) open();
    expect(() => new LiveObjects(totals()).reserve("sessions", "ws-keys")).toThrow(/This workspace has 128/);
    // A key session released (or its connection closed) gives its room back to the keys.
    connections[0]?.release("sessions", "ws-keys", "k1");
    const spare = new LiveObjects(totals());
    expect(() => spare.reserve("sessions", "ws-keys", "k3")).not.toThrow();
    spare.close();
    connections[1]?.close();
    expect(() => new LiveObjects(totals()).reserve("sessions", "ws-keys", "k3")).not.toThrow();
    for (const live of connections) live.close();
  });

  it("holds at most MAX_LIVE_SESSIONS_PER_KEY sessions of one key, leaving the others theirs", () => {
    const connections = [new LiveObjects(totals()), new LiveObjects(totals())];
    for (let i = 0; i < MAX_LIVE_SESSIONS_PER_KEY; i++)
      connections[i % 2]?.reserve("sessions", "ws-one-key", "runaway");
    const other = new LiveObjects(totals());
    expect(() => other.reserve("sessions", "ws-one-key", "runaway")).toThrow(
      /This API key holds 64 live sessions, the most one key may/,
    );
    expect(() => other.reserve("sessions", "ws-one-key", "quiet")).not.toThrow();
    connections[0]?.release("sessions", "ws-one-key", "runaway");
    expect(() => other.reserve("sessions", "ws-one-key", "runaway")).not.toThrow();
    for (const live of [...connections, other]) live.close();
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
