#!/usr/bin/env node
/**
 * `pnpm start`: runs the Workshop on this machine with its data under `.data/` and prints its URL.
 * Options: --port N (default 8787), --endpoints-port N (the gadget origin of agents' HTTP endpoints; default
 * the port + 1, 0 for any free port), --data DIR, --runners N (default: two per core, at least 8), --quiet (do not
 * print the server's log lines), --allow-local-fetch (granted gadget fetches may reach this machine),
 * --allow-host NAME (repeatable: a host name besides localhost this Workshop answers to, say behind a proxy),
 * --trust-proxy (behind a reverse proxy: each client's limits are keyed by the address its X-Forwarded-For ends in),
 * --secrets-key FILE (the key workspace secrets are sealed with; default: <data>.secrets-key beside the data folder),
 * --min-schedule-interval-ms N (tests only: the shortest `every` schedule interval, default 60000),
 * --registry URL (the npm registry packages resolve against unless a workspace sets its own; default the public one).
 */

import { resolve } from "node:path";
import { type ParseArgsOptionsConfig, parseArgs } from "node:util";
import { MIN_SCHEDULE_INTERVAL_FLOOR_MS, MIN_SCHEDULE_INTERVAL_MS } from "@gadgets/workshop-shared/limits";
import { defaultSecretsKeyFile } from "./secrets-key.ts";
import { REPO_ROOT, startWorkshopServer, type WorkshopServer } from "./workshop-server.ts";

/** Says what is wrong with how the Workshop was started, in one line, and exits as a usage error does. */
function refuse(message: string): never {
  console.error(message);
  process.exit(2);
}

const OPTIONS = {
  port: { type: "string", default: process.env.PORT ?? "8787" },
  "endpoints-port": { type: "string" },
  data: { type: "string", default: resolve(REPO_ROOT, ".data") },
  runners: { type: "string" },
  quiet: { type: "boolean", default: false },
  "allow-local-fetch": { type: "boolean", default: false },
  "allow-host": { type: "string", multiple: true, default: [] },
  "trust-proxy": { type: "boolean", default: false },
  "secrets-key": { type: "string" },
  "min-schedule-interval-ms": { type: "string" },
  registry: { type: "string" },
} satisfies ParseArgsOptionsConfig;

function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS });
  } catch (error) {
    // An unknown option or one missing its value: node's own sentence says which.
    refuse(
      `${(error as Error).message.replace(/\.?$/, ".")} Options: ${Object.keys(OPTIONS)
        .map((name) => `--${name}`)
        .join(", ")}.`,
    );
  }
}
const { values } = parseOptions();

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(
    `--port must be a port number from 1 to 65535 (0 for any free port), not ${JSON.stringify(values.port)}.`,
  );
  process.exit(2);
}

// The gadget origin: beside the IDE's port by default (any free one when the IDE's is).
const endpointsPort =
  values["endpoints-port"] === undefined ? (port === 0 ? 0 : port + 1) : Number(values["endpoints-port"]);
if (
  !Number.isInteger(endpointsPort) ||
  endpointsPort < 0 ||
  endpointsPort > 65535 ||
  (port !== 0 && endpointsPort === port)
) {
  refuse(
    values["endpoints-port"] === undefined
      ? `--port ${port} leaves no port above it for agents' HTTP endpoints: pass --endpoints-port N too.`
      : `--endpoints-port must be a port number from 1 to 65535 other than --port (0 for any free port), not ${JSON.stringify(values["endpoints-port"])}.`,
  );
}

const runners = values.runners === undefined ? undefined : Number(values.runners);
if (runners !== undefined && (!Number.isInteger(runners) || runners < 1 || runners > 64)) {
  console.error(`--runners must be a whole number from 1 to 64, not ${JSON.stringify(values.runners)}.`);
  process.exit(2);
}

const minSchedule = values["min-schedule-interval-ms"];
const minScheduleIntervalMs = minSchedule === undefined ? undefined : Number(minSchedule);
if (
  minScheduleIntervalMs !== undefined &&
  (!Number.isInteger(minScheduleIntervalMs) ||
    minScheduleIntervalMs < MIN_SCHEDULE_INTERVAL_FLOOR_MS ||
    minScheduleIntervalMs > MIN_SCHEDULE_INTERVAL_MS)
) {
  console.error(
    `--min-schedule-interval-ms must be a whole number of milliseconds from ${MIN_SCHEDULE_INTERVAL_FLOOR_MS} to ${MIN_SCHEDULE_INTERVAL_MS}, not ${JSON.stringify(minSchedule)}.`,
  );
  process.exit(2);
}

if (values.registry !== undefined && !URL.canParse(values.registry)) {
  console.error(`--registry must be a URL like https://registry.npmjs.org/, not ${JSON.stringify(values.registry)}.`);
  process.exit(2);
}

let server: WorkshopServer;
try {
  server = await startWorkshopServer({
    port,
    endpointsPort,
    dataDir: resolve(values.data),
    echo: !values.quiet,
    allowLocalFetch: values["allow-local-fetch"],
    allowedHosts: values["allow-host"],
    trustProxy: values["trust-proxy"],
    secretsKeyFile: resolve(values["secrets-key"] ?? defaultSecretsKeyFile(values.data)),
    ...(runners === undefined ? {} : { pool: { size: runners } }),
    ...(minScheduleIntervalMs === undefined ? {} : { minScheduleIntervalMs }),
    ...(values.registry === undefined ? {} : { registry: values.registry }),
  });
} catch (error) {
  const message = error instanceof Error ? error.message : String(error);
  console.error(
    /address already in use/i.test(message)
      ? `Port ${port} or ${endpointsPort} is already in use on 127.0.0.1: stop what holds it, or start with --port N (and --endpoints-port N).`
      : `The Workshop could not start: ${message}`,
  );
  process.exit(1);
}
console.log(`\nGadget Workshop is running at ${server.url}`);
console.log(`Agents' HTTP endpoints answer at ${server.endpointsUrl}/h/…`);
console.log(`Data is kept in ${resolve(values.data)}. Press Ctrl+C to stop.\n`);

let stopping = false;
// The Worker's own process ending by itself leaves nothing answering: the rest stops too, saying so.
void server.exited.then(async (code) => {
  if (stopping) return;
  stopping = true;
  const last = server.output().trim();
  console.error(`The Workshop's server process ended (${code}); stopping.${last ? ` Its last lines:\n${last}` : ""}`);
  await server.stop();
  process.exit(1);
});
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    await server.stop();
    process.exit(0);
  });
}
