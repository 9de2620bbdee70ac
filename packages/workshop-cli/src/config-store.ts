/**
 * Where `gadgets login` keeps workspace tokens: `$XDG_CONFIG_HOME/gadgets/config.json` (else
 * `~/.config/gadgets/config.json`), readable by the user alone (0600, in a 0700 folder). Tokens are kept
 * per Workshop URL, so a token is only ever sent to the server that issued it.
 */

import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { EXIT } from "./exit-codes.ts";
import { CliError } from "./cli-error.ts";

export interface SavedWorkspace {
  token: string;
  workspaceId: string;
}

export interface CliConfig {
  /** The Workshop used when neither --url nor WORKSHOP_URL says otherwise: the last one logged in to. */
  url?: string;
  /** Workspaces by Workshop URL. */
  workspaces: Record<string, SavedWorkspace>;
}

export function configPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || join(homedir(), ".config");
  return join(base, "gadgets", "config.json");
}

export function readConfig(path: string): CliConfig {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return { workspaces: {} };
    throw new CliError(EXIT.internal, `Cannot read ${path}: ${(error as Error).message}.`);
  }
  const broken = (why: string) =>
    new CliError(
      EXIT.usage,
      `${path} is not a gadgets config (${why}). Fix it, or delete it and run \`gadgets login\`.`,
    );
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw broken((error as Error).message);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) throw broken("expected an object");
  const { url, workspaces } = raw as { url?: unknown; workspaces?: unknown };
  if (url !== undefined && typeof url !== "string") throw broken('"url" must be a string');
  if (typeof workspaces !== "object" || workspaces === null || Array.isArray(workspaces))
    throw broken('"workspaces" must be an object');
  // No prototype: a key named "__proto__" in the file stays a key.
  const checked: Record<string, SavedWorkspace> = Object.create(null);
  for (const [key, entry] of Object.entries(workspaces)) {
    const { token, workspaceId } = (entry ?? {}) as { token?: unknown; workspaceId?: unknown };
    if (typeof token !== "string" || typeof workspaceId !== "string")
      throw broken(`the entry for ${key} needs "token" and "workspaceId" strings`);
    checked[key] = { token, workspaceId };
  }
  return { ...(url === undefined ? {} : { url }), workspaces: checked };
}

/** Writes the config readable by its owner alone, replacing the old file in one step. */
export function writeConfig(path: string, config: CliConfig): void {
  const folder = dirname(path);
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  // The mode given to writeFileSync is masked by the umask; set it outright.
  chmodSync(temporary, 0o600);
  renameSync(temporary, path);
}
