import { createServer } from "node:net";

/**
 * Where a fixed port is picked from: below the range the system hands out to outgoing connections
 * (32768–60999 on Linux, 49152–65535 elsewhere). A port from that range could be taken by one of this
 * machine's own connections — a Worker's to its runners — between the moment it is found free and the
 * moment a server binds it, or while a server is restarted on it.
 */
const LOWEST = 20_000;
const HIGHEST = 32_000;
const ATTEMPTS = 50;

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

function anyPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** A TCP port on 127.0.0.1 that is free now, for a server that must keep its port across restarts. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (HIGHEST - LOWEST));
    if (await canListen(port)) return port;
  }
  return anyPort();
}
