/**
 * The baseline every figure is divided by: a Cap'n Web ping between two plain Node endpoints over a
 * loopback WebSocket, measured in the same run as everything else.
 */

import { newWebSocketRpcSession, RpcTarget } from "capnweb";
import { WebSocketServer } from "ws";

class PingTarget extends RpcTarget {
  ping(): string {
    return "pong";
  }
}

export async function startBarePingServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  server.on("connection", (socket) => {
    newWebSocketRpcSession(socket as unknown as WebSocket, new PingTarget());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `ws://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
