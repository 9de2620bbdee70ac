/**
 * What each `Session` method needs, in one table: any API key (`call`), a full key or the workspace
 * token (`full`), or the workspace token alone (`owner`). The table must name every method of `Session`
 * (a missing or extra entry does not compile); `SessionTarget` asks `scopeRefusal` at the top of each.
 */

import type { Session } from "@gadgets/workshop-shared/api";
import { codedError } from "@gadgets/workshop-shared/errors";
import type { Access } from "./credentials.ts";

/** `what` ends the sentence "Use the workspace token or a full key for …". */
type Rule = { needs: "call" } | { needs: "full"; what: string } | { needs: "owner" };

export const SESSION_SCOPES = {
  workspace: { needs: "call" },
  listAgents: { needs: "call" },
  getAgent: { needs: "call" },
  runCode: { needs: "call" },
  codeModeTypes: { needs: "call" },
  // Only runs of this same connection, which a call key starts too.
  cancelRun: { needs: "call" },

  getSettings: { needs: "full", what: "settings" },
  updateSettings: { needs: "full", what: "settings" },
  listDrafts: { needs: "full", what: "drafts" },
  createDraft: { needs: "full", what: "drafts" },
  openDraft: { needs: "full", what: "drafts" },
  saveDraft: { needs: "full", what: "drafts" },
  deleteDraft: { needs: "full", what: "drafts" },
  runDraft: { needs: "full", what: "runs of drafts" },
  runTests: { needs: "full", what: "tests" },
  lastTestStatus: { needs: "full", what: "tests" },
  publishDraft: { needs: "full", what: "publishing" },
  listRuns: { needs: "full", what: "run records" },
  getRun: { needs: "full", what: "run records" },
  shareDraft: { needs: "full", what: "shares" },
  shareRun: { needs: "full", what: "shares" },
  forkShare: { needs: "full", what: "forking shares" },
  listErrors: { needs: "full", what: "the workspace's errors" },
  usage: { needs: "full", what: "the workspace's usage" },
  setSecret: { needs: "full", what: "secrets" },
  listSecrets: { needs: "full", what: "secrets" },
  deleteSecret: { needs: "full", what: "secrets" },
  listEndpoints: { needs: "full", what: "endpoints" },
  listSchedules: { needs: "full", what: "schedules" },
  pauseSchedules: { needs: "full", what: "schedules" },
  resolveDependencies: { needs: "full", what: "packages" },
  lookupPackage: { needs: "full", what: "packages" },
  packageTypes: { needs: "full", what: "packages" },
  packageFile: { needs: "full", what: "packages" },
  getRegistry: { needs: "full", what: "the registry setting" },
  setRegistry: { needs: "full", what: "the registry setting" },

  createKey: { needs: "owner" },
  listKeys: { needs: "owner" },
  revokeKey: { needs: "owner" },
} as const satisfies Record<keyof Session, Rule>;

export type SessionMethod = keyof typeof SESSION_SCOPES;

/** The FORBIDDEN error for `method` under `access`, or undefined when it is allowed. */
export function scopeRefusal(access: Access, method: SessionMethod): Error | undefined {
  if (access.kind === "owner") return undefined;
  const rule: Rule = SESSION_SCOPES[method];
  if (rule.needs === "call") return undefined;
  if (rule.needs === "owner")
    return codedError(
      "FORBIDDEN",
      `API keys are managed with the workspace token only: this API key (scope ${access.scope}) may not make, list or revoke keys. Use the workspace token.`,
    );
  if (access.scope === "full") return undefined;
  return codedError(
    "FORBIDDEN",
    `This API key (scope ${access.scope}) may only list and run published agents. Use the workspace token or a full key for ${rule.what}.`,
  );
}
