import { errorCode } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";
import { jsonLiteral, shellWord } from "../snippet-text.ts";
import { agentVersionText, pinnedAgentText } from "./version-words.ts";

export interface PublishedVersion {
  name: string;
  version: number;
  agentId: string;
  /** Its HTTP endpoint, when the version declares `triggers.http`. */
  endpointUrl?: string;
}

/**
 * How a publish went: published (with its tests overridden when the person chose so), refused because
 * the tests fail (the person may then publish anyway), or failed for another reason.
 */
export type PublishStep =
  | { status: "published"; version: PublishedVersion; testsOverridden: boolean }
  | { status: "tests-failed"; message: string }
  | { status: "failed"; message: string };

/**
 * The refusal in the words of the IDE: the API's hint (`publish with { overrideTests: true }`) is for
 * code; a person gets the "Publish anyway" button beside it.
 */
export function refusalText(message: string): string {
  return message.replace(/,? or publish with \{ ?overrideTests: true ?\}[^.]*\./, ".");
}

/** Publishes once; `overrideTests` publishes a version whose tests fail (the version records that). */
export async function publishStep(
  publish: (overrideTests: boolean) => Promise<PublishedVersion>,
  overrideTests = false,
): Promise<PublishStep> {
  try {
    return { status: "published", version: await publish(overrideTests), testsOverridden: overrideTests };
  } catch (error) {
    const message = errorMessage(error);
    return !overrideTests && errorCode(error) === "TESTS_FAILED"
      ? { status: "tests-failed", message: refusalText(message) }
      : { status: "failed", message };
  }
}

/** The one-line notice of a published version: `Published echo v3 (echo@3) — agent id a1`. */
export function publishedText(step: Extract<PublishStep, { status: "published" }>): string {
  const { version } = step;
  return `Published ${version.name} ${agentVersionText(version.version)} (${pinnedAgentText(version.name, version.version)}) — agent id ${version.agentId}${step.testsOverridden ? " (tests overridden)" : ""}${
    version.endpointUrl ? `; its endpoint answers at ${version.endpointUrl}` : ""
  }`;
}

/**
 * How to call a published version from elsewhere, as the README writes it: a Node backend with the
 * client, and the command line. Pinned to the version, so a later publish does not change what it runs.
 * The name is the user's own text: it goes in quoted, so pasting the line runs nothing but the call.
 */
export function callSnippets(version: PublishedVersion, examplePayload: unknown): { node: string; cli: string } {
  const pinned = pinnedAgentText(version.name, version.version);
  const payload = jsonLiteral(examplePayload);
  return {
    node: [
      'import { createRpcClient } from "@gadgets/workshop-shared";',
      "",
      "// WORKSHOP_URL and WORKSHOP_TOKEN (an API key) come from the environment.",
      "const client = createRpcClient();",
      `const result = await client.getAgent(${jsonLiteral(pinned)}).run(${payload});`,
    ].join("\n"),
    cli: `gadgets call ${shellWord(pinned)} --input ${shellWord(payload)}`,
  };
}
