import { errorCode } from "@gadgets/workshop-shared";
import { errorMessage } from "../error-message.ts";

export interface PublishedVersion {
  name: string;
  version: number;
  agentId: string;
  /** Its HTTP endpoint, when the version declares `triggers.http`. */
  endpointUrl?: string;
}

/**
 * Publishes a draft and returns what to tell the person. A version whose tests fail is refused; the
 * person may publish it anyway when `confirmAnyway` agrees, and then the version records that.
 */
export async function publishWithTests(
  publish: (overrideTests: boolean) => Promise<PublishedVersion>,
  confirmAnyway: (refusal: string) => boolean,
): Promise<string> {
  const published = (version: PublishedVersion, note = "") =>
    `Published ${version.name} v${version.version} — agent id ${version.agentId}${note}${
      version.endpointUrl ? `; its endpoint answers at ${version.endpointUrl}` : ""
    }`;
  try {
    return published(await publish(false));
  } catch (error) {
    const message = errorMessage(error);
    if (errorCode(error) !== "TESTS_FAILED" || !confirmAnyway(message)) return message;
    try {
      return published(await publish(true), " (tests overridden)");
    } catch (again) {
      return errorMessage(again);
    }
  }
}
