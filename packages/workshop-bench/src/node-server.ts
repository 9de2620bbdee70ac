/**
 * A Cap'n Web server in a Node process of its own, for the bench's comparisons: `ping` (the baseline:
 * a bare ping, nothing else) or `peer` (isolated-vm gadget runs, see ivm-peer.ts). Prints its port.
 */

import { newWebSocketRpcSession, RpcTarget } from "capnweb";
import { WebSocketServer } from "ws";
import { PeerTarget } from "./ivm-peer.ts";

class PingTarget extends RpcTarget {
  ping(): string {
    return "pong";
  }
}

const mode = process.argv[2];
if (mode !== "ping" && mode !== "peer") {
  console.error("usage: node node-server.ts ping|peer");
  process.exit(2);
}
const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
await new Promise<void>((resolve) => server.once("listening", () => resolve()));
// One target for all sessions: warm isolates are shared, as a real server would share them.
const peer = mode === "peer" ? new PeerTarget() : undefined;
server.on("connection", (socket) => {
  newWebSocketRpcSession(socket as unknown as WebSocket, peer ?? new PingTarget());
});
const address = server.address();
console.log(`port ${typeof address === "object" && address ? address.port : 0}`);
