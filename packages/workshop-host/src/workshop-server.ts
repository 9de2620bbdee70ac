/**
 * Starts the Workshop on this machine: the Worker (Hono, Durable Objects with SQLite on disk, Worker
 * Loader) in a workerd process of its own, configured directly — no dev proxy on the request path.
 * Used by `pnpm start`, the end-to-end tests and the benchmarks, so all three run the same thing.
 */

import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { MIN_FREE_DISK_BYTES } from "@gadgets/workshop-shared/limits";
import { list, text } from "./capnp.ts";
import { serveDiskStatus } from "./disk-status.ts";
import { ownInterfaceCidrs } from "./local-addresses.ts";
import { OutputTail } from "./output-tail.ts";
import { loadSecretsKey, newSecretsKey } from "./secrets-key.ts";
import { type PoolOptions, poolReporter, startPool } from "./pool-start.ts";
import { type PoolReport, type RunnerPool, type RunnerPoolStats, servePool } from "@gadgets/workshop-pool/supervisor";
import { freePort } from "./free-port.ts";
import { bundleWorker } from "./worker-bundle.ts";
import { readWorkerConfig, type WorkerConfig } from "./worker-config.ts";
import { ASSETS_SERVICE, workerdWorkerParts } from "./workerd-bindings.ts";
import { startWorkerd, type WorkerdProcess } from "./workerd-process.ts";

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");

/** The Worker's bindings, compatibility and assets, as deployed (worker-config.ts). */
export const WRANGLER_TOML = join(REPO_ROOT, "wrangler.toml");
/** Written into the data folder once every stored id is known to the directory (see legacyLookups). */
const DIRECTORY_MARKER = ".directory-complete";

export interface WorkshopServerOptions {
  /** Port on 127.0.0.1; a free one when left out. */
  port?: number;
  /**
   * Port of the gadget origin on 127.0.0.1, where agents' HTTP endpoints answer (`/h/…`), apart from the
   * IDE's so gadget pages never share its origin; a free one when left out or 0.
   */
  endpointsPort?: number;
  /** Where workspaces are stored (one SQLite file per workspace Durable Object). */
  dataDir: string;
  /** Extra Worker variables. */
  vars?: Record<string, string>;
  /** Print the server's own output. */
  echo?: boolean;
  /** Let granted gadget fetches reach this machine's own addresses (for local services and tests). */
  allowLocalFetch?: boolean;
  /**
   * The npm registry workspaces resolve packages against unless they set their own (default the public
   * one). One on this machine (plain http is fine there) lets workspaces use registries on this machine.
   */
  registry?: string;
  /**
   * Host names (besides localhost and loopback addresses) this Workshop answers to, say when a proxy
   * serves it under a name. Requests for any other Host are refused, so DNS rebinding reaches nothing.
   */
  allowedHosts?: string[];
  /** The Workshop is behind a reverse proxy on this machine: clients are named by its X-Forwarded-For. */
  trustProxy?: boolean;
  /**
   * The file holding the key workspace secrets are sealed with (secrets-key.ts): made on first start,
   * refused inside the data folder. Left out, a key is made for this process only (secrets set then do
   * not open after a restart: fine for tests); null, the Workshop has no key and refuses to set secrets.
   */
  secretsKeyFile?: string | null;
  /** Free disk below which new writes are refused (default MIN_FREE_DISK_BYTES). */
  minFreeDiskBytes?: number;
  /**
   * For tests only: the shortest `every` schedule interval, in ms (default MIN_SCHEDULE_INTERVAL_MS, one
   * minute; never below MIN_SCHEDULE_INTERVAL_FLOOR_MS), so a test sees schedules fire within seconds.
   */
  minScheduleIntervalMs?: number;
  /**
   * The local runner pool that enforces deadlines and memory limits (default: one runner per core).
   * `false` runs isolates directly in the Worker's process, as on Cloudflare — without local limits.
   */
  pool?: false | PoolOptions;
}

export interface WorkshopServer {
  url: string;
  /** The gadget origin: agents' HTTP endpoints are `${endpointsUrl}/h/<endpoint>`. */
  endpointsUrl: string;
  /** The Worker's workerd process (for tests that watch its memory). */
  workerPid: number;
  /** Settles when the Worker's workerd process has ended, for whatever reason (its exit code or signal). */
  exited: Promise<number | string>;
  /** The last lines the server printed, for test failure messages. */
  output(): string;
  /** The runner pool's counters, when there is a pool. */
  poolStats(): RunnerPoolStats | undefined;
  /** The pool's runner processes, when there is a pool. */
  poolRunners(): ReturnType<RunnerPool["runners"]>;
  /** Stops gracefully: requests in flight may finish first. */
  stop(): Promise<void>;
  /** Stops at once, as a crash would. */
  kill(): Promise<void>;
}

const require = createRequire(import.meta.url);
const backendEntry = () => require.resolve("@gadgets/workshop-backend");
const runnerEntry = () => require.resolve("@gadgets/workshop-backend/runner-entry");

/**
 * Whether lookups must fall back to asking each store: true for a data folder written before the
 * directory of ids existed. A fresh folder is marked complete, and then never needs the fallback.
 */
function legacyLookups(dataDir: string): boolean {
  if (existsSync(join(dataDir, DIRECTORY_MARKER))) return false;
  const hasData = (readdirSync(dataDir, { recursive: true }) as string[]).some((name) => name.endsWith(".sqlite"));
  if (hasData) return true;
  writeFileSync(join(dataDir, DIRECTORY_MARKER), "Every stored id is listed in the directory.\n");
  return false;
}

/** The main workerd config: wrangler.toml's Worker and bindings, and the services only this machine has. */
export function mainConfig(
  port: number,
  dataDir: string,
  worker: WorkerConfig,
  vars: Record<string, string>,
  allowLocalFetch: boolean,
  diskStatusPort: number,
  endpointsPort: number,
): string {
  const gadgetNetwork = list(allowLocalFetch ? [text("public"), text("local")] : [text("public")]);
  // This machine's own interface addresses may count as "public" (a LAN or cloud address): denied too.
  const gadgetDeny = list(allowLocalFetch ? [] : ownInterfaceCidrs().map(text));
  const localRegistry = vars.ALLOW_LOCAL_REGISTRY === "1";
  const registryNetwork = list(localRegistry ? [text("public"), text("local")] : [text("public")]);
  const registryDeny = list(localRegistry ? [] : ownInterfaceCidrs().map(text));
  // wrangler.toml's bindings, and beside them what only this machine has.
  const deployed = workerdWorkerParts(worker, vars);
  const bindings = [
    `(name = "GADGET_FETCH", service = "gadget-internet")`,
    `(name = "REGISTRY_FETCH", service = "registry-internet")`,
    `(name = "DISK_STATUS", service = "disk-status")`,
    ...deployed.bindings,
  ];
  const assetsDir = worker.assets && resolve(dirname(WRANGLER_TOML), worker.assets.directory);
  const assetsService = assetsDir ? `(name = ${text(ASSETS_SERVICE)}, disk = (path = ${text(assetsDir)})),` : "";
  return `using Workerd = import "/workerd/workerd.capnp";

const config :Workerd.Config = (
  services = [
    (name = "main", worker = .mainWorker),
    (name = "workspaces", disk = (path = ${text(dataDir)}, writable = true)),
    ${assetsService}
    # The Worker's own outbound network: loopback only (the runner pool).
    (name = "loopback", network = (allow = ["local"])),
    # Where granted gadget fetches go: public addresses only, so a granted name that resolves to this
    # machine reaches nothing here (unless the host was started to allow it).
    # https needs the network's own TLS settings (else "this client has no TLS configuration"): the
    # browsers' CAs, as a Worker on Cloudflare trusts them.
    (name = "gadget-internet", network = (allow = ${gadgetNetwork}, deny = ${gadgetDeny}, tlsOptions = (trustBrowserCas = true))),
    # Where npm registry requests go: the same, and this machine too when the registry is run on it.
    (name = "registry-internet", network = (allow = ${registryNetwork}, deny = ${registryDeny}, tlsOptions = (trustBrowserCas = true))),
    (name = "disk-status", external = (address = ${text(`127.0.0.1:${diskStatusPort}`)}, http = ())),
  ],
  # Two origins, one Worker: the IDE's and the gadget origin of HTTP endpoints. Each socket sets
  # Workshop-Socket (replacing any a client sent), so the Worker knows which one a request came to.
  sockets = [
    (name = "http", address = ${text(`127.0.0.1:${port}`)}, service = "main",
     http = (injectRequestHeaders = [(name = "Workshop-Socket", value = "ide")])),
    (name = "endpoints", address = ${text(`127.0.0.1:${endpointsPort}`)}, service = "main",
     http = (injectRequestHeaders = [(name = "Workshop-Socket", value = "endpoints")])),
  ],
);

const mainWorker :Workerd.Worker = (
  modules = [(name = "index.js", esModule = embed "index.js")],
  compatibilityDate = ${deployed.compatibilityDate},
  compatibilityFlags = ${deployed.compatibilityFlags},
  bindings = ${list(bindings)},
  durableObjectNamespaces = ${deployed.durableObjectNamespaces},
  durableObjectStorage = (localDisk = "workspaces"),
  globalOutbound = "loopback",
);
`;
}

function isLoopbackUrl(text: string): boolean {
  if (!URL.canParse(text)) return false;
  const host = new URL(text).hostname;
  return host === "localhost" || host === "[::1]" || /^127\.\d+\.\d+\.\d+$/.test(host);
}

async function waitForHealth(url: string, process: WorkerdProcess): Promise<void> {
  for (let i = 0; i < 100 && process.alive; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not answering yet
    }
    await new Promise((done) => setTimeout(done, 50));
  }
  throw new Error(`The Workshop did not answer on ${url}/health.`);
}

export async function startWorkshopServer(options: WorkshopServerOptions): Promise<WorkshopServer> {
  // Port 0: workerd binds a free port itself and reports it; probing for one first could lose it to
  // another socket (the Worker's own connections to runners) before workerd binds it.
  const port = options.port ?? 0;
  const dataDir = resolve(options.dataDir, "workspaces");
  mkdirSync(dataDir, { recursive: true });
  const worker = readWorkerConfig(WRANGLER_TOML);
  const output = new OutputTail(1000);
  const onOutput = (line: string) => {
    output.push(line);
    if (options.echo) console.log(line);
  };
  const secretsKey =
    options.secretsKeyFile === null
      ? undefined
      : options.secretsKeyFile === undefined
        ? newSecretsKey()
        : loadSecretsKey(options.secretsKeyFile, options.dataDir);
  const vars: Record<string, string> = {
    ALLOWED_HOSTS: ["localhost", ...(options.allowedHosts ?? [])].join(","),
    ...(options.trustProxy ? { TRUST_PROXY: "1" } : {}),
    // A text binding in the generated config, which lives in an owner-only temp folder, never the data folder.
    ...(secretsKey ? { SECRETS_KEY: secretsKey } : {}),
    ...(legacyLookups(dataDir) ? { LEGACY_LOOKUPS: "1" } : {}),
    ...(options.registry ? { NPM_REGISTRY: options.registry } : {}),
    // A registry on this machine: allowed with local fetches, or when the Workshop was pointed at one.
    ...(options.allowLocalFetch || (options.registry && isLoopbackUrl(options.registry))
      ? { ALLOW_LOCAL_REGISTRY: "1" }
      : {}),
    ...(options.minScheduleIntervalMs === undefined
      ? {}
      : { MIN_SCHEDULE_INTERVAL_MS: String(options.minScheduleIntervalMs) }),
    ...options.vars,
  };
  let pool: RunnerPool | undefined;
  let poolServer: Awaited<ReturnType<typeof servePool>> | undefined;
  // Where the pool tells a workspace why it stopped work that workspace left running (set once the Worker is up).
  let reportTo: ((workspaceId: string, report: PoolReport) => void) | undefined;
  if (options.pool !== false) {
    const secret = randomBytes(32).toString("base64url");
    pool = await startPool(options.pool, await bundleWorker(runnerEntry()), {
      // Runner output can come from gadget code: kept for diagnostics, never echoed to the terminal.
      onOutput: (line) => output.push(`runner: ${line}`),
      report: (workspaceId, report) => reportTo?.(workspaceId, report),
    });
    poolServer = await servePool(pool, secret);
    vars.RUNNER_POOL_URL = poolServer.url;
    vars.RUNNER_POOL_SECRET = secret;
  }
  const diskStatus = await serveDiskStatus(dataDir, options.minFreeDiskBytes ?? MIN_FREE_DISK_BYTES);
  const stopPool = async () => {
    await poolServer?.close();
    await pool?.stop();
    await diskStatus.close();
  };
  // The Worker builds endpoint URLs from GADGET_ORIGIN, so the gadget port is known before workerd
  // starts: a free one is picked here, and picked again should another socket take it first.
  const startMain = async (bundle: string, attempt: number): Promise<WorkerdProcess> => {
    const endpointsPort = options.endpointsPort || (await freePort());
    vars.LOCAL_SOCKETS = "1";
    vars.GADGET_ORIGIN = options.vars?.GADGET_ORIGIN ?? `http://127.0.0.1:${endpointsPort}`;
    try {
      return await startWorkerd({
        config: mainConfig(
          port,
          dataDir,
          worker,
          vars,
          options.allowLocalFetch ?? false,
          diskStatus.port,
          endpointsPort,
        ),
        files: { "index.js": bundle },
        sockets: ["http", "endpoints"],
        onOutput,
      });
    } catch (error) {
      if (options.endpointsPort || attempt >= 3) throw error;
      return startMain(bundle, attempt + 1);
    }
  };
  let main: WorkerdProcess;
  try {
    main = await startMain(await bundleWorker(backendEntry()), 1);
  } catch (error) {
    await stopPool();
    throw error;
  }
  const url = `http://127.0.0.1:${main.ports.http}`;
  const endpointsUrl = `http://127.0.0.1:${main.ports.endpoints}`;
  if (vars.RUNNER_POOL_SECRET) reportTo = poolReporter(url, vars.RUNNER_POOL_SECRET, onOutput);
  const stop = async (signal: "SIGTERM" | "SIGKILL" = "SIGTERM") => {
    if (signal === "SIGTERM") await finishRuns(url, vars.RUNNER_POOL_SECRET, pool);
    main.kill(signal);
    const timer = setTimeout(() => main.kill("SIGKILL"), 3000);
    await main.exited;
    clearTimeout(timer);
    await stopPool();
  };
  try {
    await waitForHealth(url, main);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- server output ---\n${output.text()}`);
  }
  return {
    url,
    endpointsUrl,
    workerPid: main.pid,
    exited: main.exited,
    output: () => output.text(),
    poolStats: () => pool?.stats(),
    poolRunners: () => pool?.runners() ?? [],
    stop: () => stop(),
    kill: () => stop("SIGKILL"),
  };
}

/**
 * A graceful stop ends every run first: the pool ends running and queued runs as cancelled ("shutting
 * down"), then the Worker is given until its records are stored (it says how many runs are unfinished).
 */
async function finishRuns(url: string, secret: string | undefined, pool: RunnerPool | undefined): Promise<void> {
  await pool?.drain();
  if (!secret) return;
  const deadline = Date.now() + SHUTDOWN_RECORDS_WAIT_MS;
  while (Date.now() < deadline) {
    const unfinished = await fetch(`${url}/__workshop/unfinished-runs`, {
      headers: { Authorization: `Bearer ${secret}` },
      // A Worker that hangs must not hold the shutdown past its deadline.
      signal: AbortSignal.timeout(1000),
    })
      .then((response) => response.json() as Promise<{ unfinishedRuns: number }>)
      .then((body) => body.unfinishedRuns)
      .catch(() => 0);
    if (unfinished === 0) return;
    await new Promise((done) => setTimeout(done, 20));
  }
}

/** How long a stopping Workshop waits for the last run records to be stored. */
const SHUTDOWN_RECORDS_WAIT_MS = 3000;
