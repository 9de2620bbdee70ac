/**
 * The package's entry in Node when it is installed from its tarball (the `node` condition of its
 * published exports): everything `index.ts` exports, with `ws` bundled in for the client's socket.
 * Node 20 has no WebSocket of its own, and Node 22's holds the process open (see node-websocket.ts).
 * Inside this repository Node loads `index.ts`, which finds `ws` in node_modules by itself.
 */

import WebSocket from "ws";
import { type NodeWebSocketClass, provideNodeWebSocketClass } from "./node-websocket.ts";

// `ws` declares each listener type as its own overload; the one union signature used here is a subset.
provideNodeWebSocketClass(WebSocket as unknown as NodeWebSocketClass);

export * from "./index.ts";
