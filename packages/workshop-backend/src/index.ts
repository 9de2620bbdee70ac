/**
 * The Workshop Worker: a thin Hono shell. `/api` upgrades to one Cap'n Web WebSocket session per
 * client (Origin checked, auth in-band); everything else is the web app's static files.
 */

import { type CapturedError, createErrorReporter, type ErrorReport } from "@gadgets/backend-utils/error-reporting";
import { createLogger } from "@gadgets/backend-utils/logger";
import { JOINED_FRAMES_PARAM, newBatchedRpcSession } from "@gadgets/workshop-shared/batched-websocket";
import { MAX_RPC_HELD_PER_CONNECTION, MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION } from "@gadgets/workshop-shared/limits";
import { Hono } from "hono";
import { serveAsset } from "./assets.ts";
import { clientKey } from "./client-key.ts";
import type { Env } from "./env.ts";
import { serveEmbed, serveSharePage } from "./share-pages.ts";
import { Overseer } from "./overseer.ts";
import { HOST_REFUSED_MESSAGE, isHostAllowed } from "./host-check.ts";
import { checkPoolReport } from "./pool-report.ts";
import { isOriginAllowed } from "./origin.ts";
import { handleMcp } from "./mcp/mcp-route.ts";
import { endpointResponse, errorAnswer } from "./http/endpoint-response.ts";
import { notFoundResponse, serveEndpoint } from "./http/endpoint-route.ts";
import { requestOrigin } from "./http/gadget-origin.ts";
import { Connection } from "./rpc/connection.ts";
import { unfinishedRunCount } from "./rpc/run-launcher.ts";
import { sameSecret } from "@gadgets/workshop-pool/same-secret";
import { WorkshopApiTarget } from "./rpc/workshop-api.ts";
import { applyScheduleMinimum } from "./schedules/schedule-env.ts";
import { codedStub } from "./storage/coded-errors.ts";

export { PackageStore } from "./packages/package-store.ts";
export { Directory } from "./storage/directory.ts";
export { ShareStore } from "./storage/share-store.ts";
export { WorkspaceStore } from "./storage/workspace-store.ts";

const logger = createLogger({ service: "workshop" });

/** Cap'n Web's own default is 32 MiB; our largest legitimate message is a 1 MiB gadget plus framing. */
const MAX_RPC_MESSAGE_BYTES = 4 * 1024 * 1024;
/** capnweb's default nesting (256) is far deeper than any payload we accept (64). */
const MAX_RPC_DEPTH = 96;

let overseer: Overseer | undefined;

function reportError(
  env: Env,
  workspaceId: string,
  error: CapturedError,
  context: Record<string, string>,
  waitUntil?: (work: Promise<unknown>) => void,
): void {
  const store = codedStub(env.WORKSPACES.get(env.WORKSPACES.idFromName(workspaceId)));
  const record = (report: ErrorReport) => {
    const stored = Promise.resolve(store.recordError(report));
    // Outside a session the request ends at once: the write must be allowed to finish.
    waitUntil?.(stored.catch(() => {}));
    return stored;
  };
  createErrorReporter({ workspaceId, logger, sink: { record } }).capture(error, context);
}

/** One overseer per Worker isolate: its build cache serves every connection. */
function overseerFor(env: Env): Overseer {
  overseer ??= new Overseer({
    logger,
    reportError: (workspaceId, error, context) => reportError(env, workspaceId, error, context),
  });
  return overseer;
}

const app = new Hono<{ Bindings: Env }>();

app.use("*", async (c, next) => {
  if (!isHostAllowed(c.req.header("Host"), c.env.ALLOWED_HOSTS, c.env.ALLOWED_ORIGINS))
    // On the gadget origin even a refusal is answered as every answer there is (sandboxed, unsniffed).
    return requestOrigin(c.req.raw, c.env) === "gadget"
      ? endpointResponse(errorAnswer(421, "wrong_host", HOST_REFUSED_MESSAGE))
      : c.text(HOST_REFUSED_MESSAGE, 421);
  // Manifests are checked here too (runs, descriptions): with the same minimum interval as at publish.
  applyScheduleMinimum(c.env);
  await next();
});

// Gadget answers never share the IDE's origin (http/gadget-origin.ts): the gadget origin serves
// endpoints and nothing else, and the IDE's origin serves no endpoint.
app.use("*", async (c, next) => {
  const isEndpoint = c.req.path === "/h" || c.req.path.startsWith("/h/");
  if (requestOrigin(c.req.raw, c.env) === "gadget") {
    if (!isEndpoint) return notFoundResponse();
    return serveEndpoint(c.req.raw, {
      env: c.env,
      overseer: overseerFor(c.env),
      client: clientKey(c.req.raw, c.env),
      waitUntil: (work) => c.executionCtx.waitUntil(work),
      logger,
    });
  }
  if (isEndpoint)
    return c.text(
      c.env.GADGET_ORIGIN
        ? `HTTP endpoints are served on ${c.env.GADGET_ORIGIN}, never on the Workshop's own address: use the URL listEndpoints gives.`
        : "This Workshop serves no HTTP endpoints: it has no GADGET_ORIGIN (see the README, Deploy to Cloudflare).",
      404,
    );
  await next();
});

app.get("/health", (c) => c.json({ ok: true }));

// The local host asks this while shutting down, so it stops the Worker only once every run that
// started has its record. Only the host knows the secret; to anyone else the route does not exist.
app.get("/__workshop/unfinished-runs", (c) => {
  const secret = c.env.RUNNER_POOL_SECRET;
  if (!secret || !sameSecret(c.req.header("Authorization") ?? "", `Bearer ${secret}`)) return c.text("Not found", 404);
  return c.json({ unfinishedRuns: unfinishedRunCount() });
});

// The local runner pool files what it did to a workspace's runner outside any run (work left running
// after an outcome, stopped) with that workspace's error reports. Host-only, like the route above.
app.post("/__workshop/pool-report", async (c) => {
  const secret = c.env.RUNNER_POOL_SECRET;
  if (!secret || !sameSecret(c.req.header("Authorization") ?? "", `Bearer ${secret}`)) return c.text("Not found", 404);
  const report = checkPoolReport(await c.req.json().catch(() => undefined));
  if (!report.ok) return c.text(report.error, 400);
  // Anonymous visitors of shared links have no error reports to file into.
  if (!report.value.workspaceId.startsWith("anonymous-"))
    reportError(
      c.env,
      report.value.workspaceId,
      { name: "RunnerStopped", message: report.value.message, stack: "" },
      { kind: report.value.kind },
      (work) => c.executionCtx.waitUntil(work),
    );
  return c.json({ ok: true });
});

app.all("/api", (c) => {
  if (!isOriginAllowed(c.req.header("Origin"), c.req.header("Host"), c.env.ALLOWED_ORIGINS)) {
    return c.text(
      "This origin may not open a Workshop session. Open the Workshop from its own address, or add the origin to ALLOWED_ORIGINS.",
      403,
    );
  }
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.text(
      "The Workshop API is a Cap'n Web WebSocket session: connect with createRpcClient() from @gadgets/workshop-shared.",
      426,
    );
  }
  const connection = new Connection(c.env, overseerFor(c.env), clientKey(c.req.raw, c.env), (work) =>
    c.executionCtx.waitUntil(work),
  );
  const [client, server] = Object.values(new WebSocketPair()) as [WebSocket, WebSocket];
  server.accept();
  newBatchedRpcSession(server, new WorkshopApiTarget(connection), {
    limits: { maxMessageSize: MAX_RPC_MESSAGE_BYTES, maxDepth: MAX_RPC_DEPTH },
    holdings: { maxHeld: MAX_RPC_HELD_PER_CONNECTION, maxQueued: MAX_RPC_QUEUED_MESSAGES_PER_CONNECTION },
    // Our own clients ask for joined frames; any other Cap'n Web client gets one message per frame.
    joinOutgoing: new URL(c.req.url).searchParams.get(JOINED_FRAMES_PARAM) === "1",
  });
  return new Response(null, { status: 101, webSocket: client });
});

// MCP over Streamable HTTP for LLM clients, authenticated by an API key (mcp/mcp-route.ts).
app.all("/mcp", (c) =>
  handleMcp(c.req.raw, {
    env: c.env,
    overseer: overseerFor(c.env),
    client: clientKey(c.req.raw, c.env),
    waitUntil: (work) => c.executionCtx.waitUntil(work),
  }),
);

app.get("/s/:id", (c) => serveSharePage(c.env, c.req.raw, "snapshot", c.req.param("id")));
app.get("/r/:id", (c) => serveSharePage(c.env, c.req.raw, "record", c.req.param("id")));
app.get("/embed/:id", (c) => serveEmbed(c.env, c.req.raw, c.req.param("id")));

app.get("*", (c) => (c.env.ASSETS ? serveAsset(c.env.ASSETS, c.req.raw) : c.text("Not found", 404)));

app.all("*", (c) => c.text("Not found", 404));

export default app;
