import { describe, expect, it } from "vitest";
import { ALL_ATTACKS, ATTACKS, steeringCharacters } from "./testing/terminal-attacks.ts";
import { escapeControls, escapeControlsButColours } from "./terminal-text.ts";

describe("escapeControls", () => {
  it("shows every character that could steer a terminal as its \\u escape", () => {
    expect(escapeControls(ATTACKS.title)).toBe("\\u001b]0;pwned\\u0007");
    expect(escapeControls(ATTACKS.overwrite)).toBe("\\u000d\\u001b[1A✓ all checks passed");
    expect(escapeControls(ATTACKS.c1)).toBe("\\u009b2K");
    expect(escapeControls(ATTACKS.bidi)).toBe("\\u202egnp.exe");
    expect(escapeControls("\u0000\u001f\u007f\u0080\u009f\u2066\u2069")).toBe(
      "\\u0000\\u001f\\u007f\\u0080\\u009f\\u2066\\u2069",
    );
    expect(steeringCharacters(escapeControls(ALL_ATTACKS))).toEqual([]);
  });

  it("keeps newlines, tabs and every other character, and changes nothing twice", () => {
    const text = "line\n\tindented ✓ — ünïcödé 漢字 \u00a0 \u200d";
    expect(escapeControls(text)).toBe(text);
    const once = escapeControls(ALL_ATTACKS);
    expect(escapeControls(once)).toBe(once);
  });

  it("keeps JSON valid and meaning the same, where JSON.stringify leaves C1 and bidi characters raw", () => {
    const value = { text: ALL_ATTACKS, [ATTACKS.c1]: [ATTACKS.bidi] };
    const raw = JSON.stringify(value, null, 2);
    expect(steeringCharacters(raw)).not.toEqual([]);
    const shown = escapeControls(raw);
    expect(steeringCharacters(shown)).toEqual([]);
    expect(JSON.parse(shown)).toEqual(value);
  });
});

describe("escapeControlsButColours", () => {
  it("keeps colour sequences and escapes everything else that steers", () => {
    const styled = `\u001b[31merror\u001b[39m \u001b[1;33mwarn\u001b[0m ${ATTACKS.title}${ATTACKS.overwrite}`;
    expect(escapeControlsButColours(styled)).toBe(
      "\u001b[31merror\u001b[39m \u001b[1;33mwarn\u001b[0m \\u001b]0;pwned\\u0007\\u000d\\u001b[1A✓ all checks passed",
    );
    expect(escapeControlsButColours("\u001b[2K\u001b")).toBe("\\u001b[2K\\u001b");
  });
});
