import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { generateHarnessText, HARNESS_TEXT_PATH, REGENERATE_COMMAND } from "./harness-text.ts";

describe("the harness text shipped into isolates", () => {
  it(`is generated from the harness's current sources (else run \`${REGENERATE_COMMAND}\`)`, async () => {
    const committed = await readFile(HARNESS_TEXT_PATH, "utf8");
    expect(committed === (await generateHarnessText()), `stale: run \`${REGENERATE_COMMAND}\``).toBe(true);
  });
});
