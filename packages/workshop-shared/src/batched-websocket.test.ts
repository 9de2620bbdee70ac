import { RpcTarget } from "capnweb";
import { describe, expect, it, vi } from "vitest";
import { BatchedWebSocketTransport, type MessageSocket, newBatchedRpcSession } from "./batched-websocket.ts";

type Listener = (event: { data?: unknown; code?: number; reason?: string }) => void;

/** One end of an in-memory socket pair: frames arrive on a later task, as over a real socket. */
class FakeSocket implements MessageSocket {
  peer: FakeSocket | undefined;
  readonly frames: string[] = [];
  readonly #listeners = new Map<string, Listener[]>();

  send(message: string): void {
    this.frames.push(message);
    setTimeout(() => this.peer?.emit("message", { data: message }));
  }
  close(code?: number, reason?: string): void {
    setTimeout(() => this.peer?.emit("close", { code: code ?? 1000, reason: reason ?? "" }));
  }
  addEventListener(type: string, listener: Listener): void {
    this.#listeners.set(type, [...(this.#listeners.get(type) ?? []), listener]);
  }
  emit(type: string, event: Parameters<Listener>[0]): void {
    for (const listener of this.#listeners.get(type) ?? []) listener(event);
  }
}

function socketPair(): [FakeSocket, FakeSocket] {
  const a = new FakeSocket();
  const b = new FakeSocket();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

class Echo extends RpcTarget {
  echo(text: string): string {
    return `echo: ${text}`;
  }
}

const settle = (ms = 0) => new Promise((done) => setTimeout(done, ms));

describe("BatchedWebSocketTransport", () => {
  it("sends a call's push and pull as one frame, and its answer as one", async () => {
    const [client, server] = socketPair();
    const stub = newBatchedRpcSession<Echo>(client);
    newBatchedRpcSession(server, new Echo());
    expect(await stub.echo("hi")).toBe("echo: hi");
    expect(client.frames).toHaveLength(1);
    expect(client.frames[0]?.split("\n").map((message) => JSON.parse(message)[0])).toEqual(["push", "pull"]);
    expect(server.frames).toHaveLength(1);
    expect(await stub.echo("again")).toBe("echo: again");
    // The first call's release waited for the second call, and left with it.
    expect(client.frames[1]?.split("\n").map((message) => JSON.parse(message)[0])).toEqual(["release", "push", "pull"]);
  });

  it("sends releases alone once they have waited a little", async () => {
    const [client, server] = socketPair();
    const stub = newBatchedRpcSession<Echo>(client);
    newBatchedRpcSession(server, new Echo());
    await stub.echo("hi");
    expect(client.frames).toHaveLength(1);
    await settle(60);
    expect(client.frames).toHaveLength(2);
    expect(JSON.parse(client.frames[1] as string)[0]).toBe("release");
  });

  it("sends a long message in a frame of its own, in order", async () => {
    const [a, b] = socketPair();
    const sender = new BatchedWebSocketTransport(a);
    const receiver = new BatchedWebSocketTransport(b);
    const long = JSON.stringify(["push", "x".repeat(300 * 1024)]);
    sender.send('["pull",1]');
    sender.send(long);
    sender.send('["pull",2]');
    await settle();
    expect(a.frames).toEqual(['["pull",1]', long, '["pull",2]']);
    expect([await receiver.receive(), await receiver.receive(), await receiver.receive()]).toEqual([
      '["pull",1]',
      long,
      '["pull",2]',
    ]);
  });

  it("fails a waiting receive when the peer closes, and refuses binary frames", async () => {
    const [a, b] = socketPair();
    const receiver = new BatchedWebSocketTransport(b);
    const waiting = receiver.receive();
    a.close(1001, "going away");
    await expect(waiting).rejects.toThrow("Peer closed WebSocket: 1001 going away");

    const [c, d] = socketPair();
    const binary = new BatchedWebSocketTransport(d);
    c.peer?.emit("message", { data: new ArrayBuffer(1) });
    await expect(binary.receive()).rejects.toThrow(/binary/);
  });
});

describe("a session with holdings limits", () => {
  class Pinger extends RpcTarget {
    ping(): string {
      return "pong";
    }
  }

  /** A server session with limits, and a raw peer that sends hand-made frames to it. */
  function rawPeer(limits: { maxHeld: number; maxQueued: number }) {
    const [client, server] = socketPair();
    newBatchedRpcSession(server, new Pinger(), { holdings: limits });
    const received: string[] = [];
    const closed: { code?: number; reason?: string }[] = [];
    client.addEventListener("message", (event) => received.push(...String(event.data).split("\n")));
    client.addEventListener("close", (event) => closed.push(event));
    return { send: (frame: string) => client.send(frame), received, closed };
  }
  const pushes = (n: number) => Array.from({ length: n }, () => '["push",["pipeline",0,["ping"],[]]]').join("\n");

  it("holds a peer's unreleased results up to the limit and ends the session past it, saying why", async () => {
    const atLimit = rawPeer({ maxHeld: 50, maxQueued: 1000 });
    // The main import and export count: 48 pushes fill 50 entries.
    atLimit.send(pushes(48));
    atLimit.send('["pull",48]');
    // Waited for, not timed: the answer comes after the session's own microtasks and timers.
    await vi.waitFor(() => expect(atLimit.received.some((message) => message.startsWith('["resolve",48'))).toBe(true));
    expect(atLimit.closed).toEqual([]);

    const past = rawPeer({ maxHeld: 50, maxQueued: 1000 });
    past.send(pushes(49));
    await vi.waitFor(() => expect(past.closed).toHaveLength(1));
    const abort = past.received.find((message) => message.startsWith('["abort"'));
    expect(abort).toContain("would pass the limit of 50");
  });

  it("ends the session when a peer queues more unread messages than the limit", async () => {
    // The session is waiting for a message: the frame's first is read at once, the other 100 wait.
    const peer = rawPeer({ maxHeld: 10_000, maxQueued: 100 });
    peer.send(pushes(101));
    await settle(10);
    expect(peer.closed).toEqual([]);
    const flooded = rawPeer({ maxHeld: 10_000, maxQueued: 100 });
    flooded.send(pushes(102));
    await vi.waitFor(() => expect(flooded.closed).toHaveLength(1));
    expect(flooded.received.find((message) => message.startsWith('["abort"'))).toContain("more than 100 messages");
  });
});
