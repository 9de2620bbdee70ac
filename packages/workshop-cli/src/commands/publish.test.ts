import type { TestStatus } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { ATTACKS, steeringCharacters } from "../testing/terminal-attacks.ts";
import { publishedText, testsRefusedMessage } from "./publish.ts";

const AGENT_ID = "a".repeat(22);
const ENDPOINT = "http://gadgets.test/e/greeter";

describe("publishedText", () => {
  it("prints the endpoint of an agent with triggers.http, in text and in --json", () => {
    const published = { agentId: AGENT_ID, name: "greeter", version: 2, endpointUrl: ENDPOINT };
    expect(publishedText(published, false).stdout).toBe(`greeter@2\nagent id: ${AGENT_ID}\nendpoint: ${ENDPOINT}\n`);
    expect(JSON.parse(publishedText(published, true).stdout)).toEqual({
      name: "greeter",
      version: 2,
      agentId: AGENT_ID,
      endpointUrl: ENDPOINT,
    });
  });

  it("leaves the endpoint out of an agent without one", () => {
    const published = { agentId: AGENT_ID, name: "echo", version: 1 };
    expect(publishedText(published, false).stdout).toBe(`echo@1\nagent id: ${AGENT_ID}\n`);
    expect(JSON.parse(publishedText(published, true).stdout)).toEqual({ name: "echo", version: 1, agentId: AGENT_ID });
  });

  it("shows control characters in the Workshop's answer as escapes", () => {
    const published = { agentId: AGENT_ID, name: "x", version: 1, endpointUrl: `${ENDPOINT}${ATTACKS.overwrite}` };
    for (const json of [false, true]) expect(steeringCharacters(publishedText(published, json).stdout)).toEqual([]);
    expect(publishedText(published, false).stdout).toContain("endpoint: http://gadgets.test/e/greeter\\u000d");
  });
});

describe("testsRefusedMessage", () => {
  const status: TestStatus = {
    status: "failed",
    version: 4,
    at: 0,
    total: 2,
    passed: 1,
    failed: 1,
    cases: [
      { name: "adds", status: "passed", runId: "r1" },
      { name: "adds again", status: "failed", runId: "r2" },
    ],
  };

  it("names the failed cases, the saved revision and the flag that publishes anyway", () => {
    expect(testsRefusedMessage(status)).toBe(
      'Not published: 1 of 2 test cases of saved #4 failed ("adds again"). See the cases with gadgets test, or publish anyway with --override-tests.',
    );
    expect(testsRefusedMessage({ ...status, status: "invalid", cases: [] })).toContain(
      "the gadget.tests.json of saved #4 is invalid",
    );
  });

  it("still names the flag when the test status cannot be read", () => {
    expect(testsRefusedMessage(null)).toContain("--override-tests");
    expect(testsRefusedMessage(null)).not.toContain("overrideTests");
  });
});
