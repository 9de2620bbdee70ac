/**
 * Which Workshop and workspace a command talks to, and the first contact with it. The URL comes from
 * --url, else WORKSHOP_URL, else the last `gadgets login`, else the local default; the token from
 * --token, else WORKSHOP_TOKEN, else the one saved for that URL. Unreachable servers and refused tokens
 * are told apart here, before any real work, so each gets its own message and exit code.
 */

import {
  CLI_CONNECT_TIMEOUT_MS,
  DEFAULT_WORKSHOP_URL,
  apiWebSocketUrl,
  createRpcClient,
  errorCode,
  type Session,
  type WorkshopClient,
} from "@gadgets/workshop-shared";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { RpcStub } from "capnweb";
import { CliError } from "./cli-error.ts";
import { type CliConfig, configPath, readConfig } from "./config-store.ts";
import { EXIT, type ExitCode } from "./exit-codes.ts";

export interface ConnectionFlags {
  url?: string;
  token?: string;
}

export interface Target {
  /** The Workshop's base URL, normalised (no trailing slash). */
  url: string;
  token?: string;
  /** Where the token came from, for `gadgets whoami` and error messages. */
  tokenSource?: "--token" | "WORKSHOP_TOKEN" | "config";
  configPath: string;
}

/** `http://host:port/base/` → `http://host:port/base`; refuses what is not an http(s) URL. */
export function normaliseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new CliError(EXIT.usage, `"${raw}" is not a URL: give the Workshop's address, like ${DEFAULT_WORKSHOP_URL}.`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:")
    throw new CliError(
      EXIT.usage,
      `"${raw}" is not an http(s) URL: give the Workshop's address, like ${DEFAULT_WORKSHOP_URL}.`,
    );
  if (url.username || url.password || url.search || url.hash)
    throw new CliError(
      EXIT.usage,
      `"${raw}" carries credentials, a query or a fragment: give the Workshop's address only.`,
    );
  // The session lives at <base>/api; a URL that already names it means the same Workshop.
  return `${url.origin}${url.pathname.replace(/\/api\/?$/, "").replace(/\/$/, "")}`;
}

export function resolveTarget(flags: ConnectionFlags, env: NodeJS.ProcessEnv = process.env): Target {
  const path = configPath(env);
  const config: CliConfig = readConfig(path);
  const url = normaliseUrl(flags.url || env.WORKSHOP_URL || config.url || DEFAULT_WORKSHOP_URL);
  if (flags.token) return { url, token: flags.token, tokenSource: "--token", configPath: path };
  if (env.WORKSHOP_TOKEN) return { url, token: env.WORKSHOP_TOKEN, tokenSource: "WORKSHOP_TOKEN", configPath: path };
  const saved = config.workspaces[url];
  if (saved) return { url, token: saved.token, tokenSource: "config", configPath: path };
  return { url, configPath: path };
}

/** Races `promise` against the connect timeout, so a server that never answers is reported, not waited on. */
async function withinConnectTimeout<T>(promise: Promise<T>, url: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`no answer within ${CLI_CONNECT_TIMEOUT_MS / 1000} s`)),
      CLI_CONNECT_TIMEOUT_MS,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } catch (error) {
    throw unreachable(url, error);
  } finally {
    clearTimeout(timer);
  }
}

/** `asked`: the address that did not answer, the session's WebSocket unless said otherwise. */
export function unreachable(url: string, cause: unknown, asked = apiWebSocketUrl(url)): CliError {
  const why = cause instanceof Error ? cause.message : String(cause);
  return new CliError(
    EXIT.unreachable,
    `Cannot reach a Workshop at ${url} (${asked}: ${why.replace(/\.$/, "")}).\n` +
      "Start one with `npx -y pnpm@12.4.2 start` in the Workshop repository (it listens on " +
      `${DEFAULT_WORKSHOP_URL}), or point at another with --url or WORKSHOP_URL.`,
  );
}

/** An API key (`gk_…`) rather than a workspace token: its messages differ, not how it is used. */
export function isApiKey(token: string): boolean {
  return token.startsWith("gk_");
}

/** A client whose server answered; only `createWorkspace` and `ping` are usable without a token. */
export async function connect(target: Target): Promise<WorkshopClient> {
  const client = createRpcClient({ url: target.url, ...(target.token ? { token: target.token } : {}) });
  try {
    await withinConnectTimeout(client.api.ping(), target.url);
  } catch (error) {
    client[Symbol.dispose]();
    throw error;
  }
  return client;
}

export interface OpenSession extends Disposable {
  client: WorkshopClient;
  session: RpcStub<Session>;
  workspaceId: string;
  /** Set when the connection to the Workshop broke. */
  readonly lost: Error | undefined;
  /** A failed call as the user should see it: the server's refusal with `exitCode`, or the lost connection. */
  failure(error: unknown, exitCode: ExitCode): CliError;
}

/** How long the check behind a missing token waits for an answer: enough for a Workshop across the internet. */
const HEALTH_TIMEOUT_MS = 3_000;

/**
 * Why nothing answered `url`'s health check (its network error, or the time-out), or undefined if it
 * answered. node:http rather than fetch, which refuses some ports (9, 25…) by itself, as a browser does.
 */
export function unanswered(url: string, timeoutMs = HEALTH_TIMEOUT_MS): Promise<Error | undefined> {
  const health = `${url}/health`;
  const send = health.startsWith("https:") ? httpsRequest : httpRequest;
  return new Promise((done) => {
    const request = send(health, { timeout: timeoutMs }, (response) => {
      // Any answer, even an error status, means something listens there: only no answer at all counts.
      done(undefined);
      response.resume();
      request.destroy();
    });
    request.on("timeout", () => request.destroy(new Error(`no answer within ${timeoutMs / 1000} s`)));
    // Both addresses of a name refusing is an AggregateError with no message of its own, only a code.
    request.on("error", (error: NodeJS.ErrnoException) => done(new Error(error.message || error.code || "failed")));
    request.end();
  });
}

/** A client and an authenticated session of the target's workspace; dispose it when done. */
export async function openSession(target: Target): Promise<OpenSession> {
  if (!target.token) {
    // No token saved for this URL may mean a mistyped URL: say so when nothing is there at all.
    const silence = await unanswered(target.url);
    if (silence) throw unreachable(target.url, silence, `${target.url}/health`);
    throw new CliError(
      EXIT.auth,
      `No workspace token for ${target.url}. Run \`gadgets login\` to create a workspace (or \`gadgets login --token <token>\` to use yours), or set WORKSHOP_TOKEN.`,
    );
  }
  const client = await connect(target);
  let lost: Error | undefined;
  client.api.onRpcBroken((error: unknown) => {
    lost = error instanceof Error ? error : new Error(String(error));
  });
  const session = client.getSession();
  try {
    const { workspaceId } = await session.workspace();
    return {
      client,
      session,
      workspaceId,
      get lost() {
        return lost;
      },
      failure(error, exitCode) {
        if (error instanceof CliError) return error;
        if (lost) return unreachable(target.url, lost);
        const message = error instanceof Error ? error.message : String(error);
        // An API key's scope (or a revoked key) refused it: a credential problem, whatever the command.
        return new CliError(errorCode(error) === "FORBIDDEN" ? EXIT.auth : exitCode, message);
      },
      [Symbol.dispose]() {
        session[Symbol.dispose]();
        client[Symbol.dispose]();
      },
    };
  } catch (error) {
    session[Symbol.dispose]();
    client[Symbol.dispose]();
    const from = target.tokenSource === "config" ? `the token saved in ${target.configPath}` : target.tokenSource;
    const key = isApiKey(target.token);
    throw new CliError(
      EXIT.auth,
      `${target.url} refused the ${key ? "API key" : "workspace token"} from ${from}: ${(error as Error).message}\n` +
        (key
          ? "The key may be revoked or mistyped. Ask the workspace's owner for a new one (gadgets keys create)."
          : "The workspace may be gone or the token mistyped. Run `gadgets login` for a new workspace, or `gadgets login --token <token>`."),
    );
  }
}
