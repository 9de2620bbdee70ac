import { describe, expect, it } from "vitest";
import { agentVersionText, pinnedAgentText, savedRevisionText } from "./version-words.ts";

describe("version words", () => {
  it("words a draft's saved revision apart from an agent's published version", () => {
    expect(savedRevisionText(7)).toBe("saved #7");
    expect(agentVersionText(1)).toBe("v1");
    expect(pinnedAgentText("echo", 3)).toBe("echo@3");
  });
});
