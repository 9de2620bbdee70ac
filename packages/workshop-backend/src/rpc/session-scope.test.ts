import { errorCode } from "@gadgets/workshop-shared/errors";
import { describe, expect, it } from "vitest";
import { type Access, allowsAgent, OWNER_ACCESS } from "./credentials.ts";
import { SESSION_SCOPES, type SessionMethod, scopeRefusal } from "./session-scope.ts";

const key = (scope: "call" | "full", agents: string[] | null = null): Access => ({
  kind: "key",
  keyId: "k1",
  name: "test",
  scope,
  agents,
});
const methods = Object.keys(SESSION_SCOPES) as SessionMethod[];
const CALL_METHODS = ["workspace", "listAgents", "getAgent", "runCode", "codeModeTypes", "cancelRun"];
const KEY_METHODS = ["createKey", "listKeys", "revokeKey"];

describe("scopeRefusal", () => {
  it("allows the workspace token everything", () => {
    for (const method of methods) expect(scopeRefusal(OWNER_ACCESS, method)).toBeUndefined();
  });

  it("allows a call key only to list and run agents, and says what to use for the rest", () => {
    for (const method of methods) {
      const refused = scopeRefusal(key("call"), method);
      if (CALL_METHODS.includes(method)) expect(refused, method).toBeUndefined();
      else expect(errorCode(refused), method).toBe("FORBIDDEN");
    }
    expect(scopeRefusal(key("call"), "listDrafts")?.message).toBe(
      "This API key (scope call) may only list and run published agents. Use the workspace token or a full key for drafts.",
    );
  });

  it("allows a full key everything but managing keys", () => {
    for (const method of methods) {
      const refused = scopeRefusal(key("full"), method);
      if (KEY_METHODS.includes(method)) expect(errorCode(refused), method).toBe("FORBIDDEN");
      else expect(refused, method).toBeUndefined();
    }
    expect(scopeRefusal(key("full"), "createKey")?.message).toMatch(
      /^API keys are managed with the workspace token only/,
    );
  });
});

describe("allowsAgent", () => {
  const echo = { agentId: "a-echo", name: "echo" };
  it("allows every agent to the token and to a key for all agents, and only the named ids to a limited key", () => {
    expect(allowsAgent(OWNER_ACCESS, echo)).toBe(true);
    expect(allowsAgent(key("call"), echo)).toBe(true);
    expect(allowsAgent(key("call", ["a-echo"]), echo)).toBe(true);
    expect(allowsAgent(key("call", ["a-other"]), echo)).toBe(false);
    // Kept by id: another agent that takes the name gains nothing.
    expect(allowsAgent(key("call", ["a-echo"]), { agentId: "a-new", name: "echo" })).toBe(false);
  });
});
