import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer as createHttpServer } from "node:http";
import { createServer, type Server, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { CliError } from "./cli-error.ts";
import { configPath, readConfig, writeConfig } from "./config-store.ts";
import { normaliseUrl, openSession, resolveTarget, unanswered } from "./connection.ts";
import { EXIT } from "./exit-codes.ts";

const TOKEN_A = `gw_${"a".repeat(43)}`;
const TOKEN_B = `gw_${"b".repeat(43)}`;

function configHome(): NodeJS.ProcessEnv {
  return { XDG_CONFIG_HOME: mkdtempSync(join(tmpdir(), "gadgets-config-")) };
}

describe("the config file", () => {
  it("is written readable by its owner alone, in a folder of its own", () => {
    const env = configHome();
    const path = configPath(env);
    writeConfig(path, { url: "http://a.test", workspaces: { "http://a.test": { token: TOKEN_A, workspaceId: "w" } } });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(join(path, "..")).mode & 0o777).toBe(0o700);
    expect(readConfig(path).workspaces["http://a.test"]?.token).toBe(TOKEN_A);
  });

  it("keeps a key named __proto__ as a key", () => {
    const env = configHome();
    const path = configPath(env);
    writeConfig(path, { workspaces: {} });
    writeFileSync(path, JSON.stringify({ workspaces: { ["__proto__"]: { token: TOKEN_A, workspaceId: "w" } } }));
    const config = readConfig(path);
    expect(Object.keys(config.workspaces)).toEqual(["__proto__"]);
    expect(Object.getPrototypeOf(config.workspaces)).toBeNull();
  });

  it("refuses a file that is not a config, saying how to fix it", () => {
    const env = configHome();
    const path = configPath(env);
    writeConfig(path, { workspaces: {} });
    writeFileSync(path, JSON.stringify({ workspaces: { "http://a.test": { token: 1 } } }));
    expect(() => readConfig(path)).toThrow(/needs "token" and "workspaceId" strings/);
    expect(readFileSync(path, "utf8")).toContain("token");
  });
});

describe("resolveTarget", () => {
  it("takes --url and --token first, then WORKSHOP_URL and WORKSHOP_TOKEN, then the saved login", () => {
    const env = configHome();
    writeConfig(configPath(env), {
      url: "http://saved.test",
      workspaces: { "http://saved.test": { token: TOKEN_A, workspaceId: "w" } },
    });
    expect(resolveTarget({}, env)).toMatchObject({ url: "http://saved.test", token: TOKEN_A, tokenSource: "config" });
    expect(resolveTarget({}, { ...env, WORKSHOP_TOKEN: TOKEN_B })).toMatchObject({ tokenSource: "WORKSHOP_TOKEN" });
    expect(resolveTarget({ token: TOKEN_B }, { ...env, WORKSHOP_TOKEN: TOKEN_A })).toMatchObject({
      token: TOKEN_B,
      tokenSource: "--token",
    });
    expect(resolveTarget({}, { XDG_CONFIG_HOME: join(tmpdir(), "nothing-here") })).toEqual({
      url: "http://127.0.0.1:8787",
      configPath: join(tmpdir(), "nothing-here", "gadgets", "config.json"),
    });
  });

  it("never hands a saved token to another Workshop", () => {
    const env = configHome();
    writeConfig(configPath(env), {
      url: "http://saved.test",
      workspaces: { "http://saved.test": { token: TOKEN_A, workspaceId: "w" } },
    });
    expect(resolveTarget({ url: "http://other.test" }, env).token).toBeUndefined();
    expect(resolveTarget({}, { ...env, WORKSHOP_URL: "http://saved.test:8080" }).token).toBeUndefined();
    expect(resolveTarget({ url: "http://saved.test/api/" }, env).token).toBe(TOKEN_A);
  });
});

describe("normaliseUrl", () => {
  it("turns the forms of one Workshop address into one", () => {
    expect(normaliseUrl("http://127.0.0.1:8787/")).toBe("http://127.0.0.1:8787");
    expect(normaliseUrl("https://w.example.com/base/api")).toBe("https://w.example.com/base");
  });

  it("refuses what is not an http(s) address of a Workshop", () => {
    for (const bad of ["nope", "ftp://x.test", "http://user:pw@x.test", "http://x.test/?a=1"]) {
      expect(() => normaliseUrl(bad)).toThrow(CliError);
    }
  });
});

describe("openSession without a token", () => {
  const servers: Server[] = [];
  const sockets: Socket[] = [];
  afterEach(async () => {
    for (const socket of sockets.splice(0)) socket.destroy();
    await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  });

  async function listening(server: Server): Promise<string> {
    servers.push(server);
    server.on("connection", (socket: Socket) => sockets.push(socket));
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  }

  async function refusal(url: string): Promise<CliError> {
    const error = await openSession({ url, configPath: "/nowhere/config.json" }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }

  it("says no Workshop answers at a URL where nothing listens, not that a token is missing", async () => {
    const url = await listening(createServer());
    await new Promise((done) => servers.pop()?.close(done));
    const error = await refusal(url);
    expect(error.exitCode).toBe(EXIT.unreachable);
    expect(error.message).toContain(`Cannot reach a Workshop at ${url} (${url}/health: connect ECONNREFUSED`);
  });

  it("asks ports fetch would refuse by itself (9, the example of a mistyped one)", async () => {
    expect((await unanswered("http://127.0.0.1:9"))?.message).toContain("ECONNREFUSED");
  });

  it("says the token is missing when something answers there", async () => {
    const url = await listening(createHttpServer((_, response) => response.end('{"ok":true}')));
    const error = await refusal(url);
    expect(error.exitCode).toBe(EXIT.auth);
    expect(error.message).toContain(`No workspace token for ${url}`);
  });

  it("gives up on a server that never answers after its time-out", async () => {
    const url = await listening(createServer(() => {}));
    expect((await unanswered(url, 200))?.message).toBe("no answer within 0.2 s");
  });
});
