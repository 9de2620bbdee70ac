import { MIN_SECRET_BYTES } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { grantedSecrets, secretEntry, secretInputProblem, secretNameList, secretRows } from "./secret-rows.ts";

const NOW = 1_700_000_000_000;

describe("secretRows", () => {
  it("says each secret's size, when it was set and who uses it, by name", () => {
    expect(
      secretRows(
        [
          { name: "B_KEY", bytes: 2048, updatedAt: NOW - 3 * 60_000, usedBy: [] },
          { name: "A_TOKEN", bytes: 40, updatedAt: NOW - 5_000, usedBy: ["github", "ci"] },
        ],
        NOW,
      ),
    ).toEqual([
      { name: "A_TOKEN", size: "40 bytes", set: "set 5 s ago", usedBy: "used by github, ci" },
      { name: "B_KEY", size: "2.0 KB", set: "set 3 min ago", usedBy: "no published agent uses it" },
    ]);
  });
});

describe("secretInputProblem", () => {
  it("takes a good name and value, and words what is wrong with either", () => {
    expect(secretInputProblem("GITHUB_TOKEN", "x".repeat(MIN_SECRET_BYTES))).toBeUndefined();
    expect(secretInputProblem("github", "long-enough-value")).toContain("upper-case letters");
    expect(secretInputProblem("TOKEN", "short")).toContain(`this one is 5`);
  });
});

describe("secretEntry", () => {
  it("trims the name, keeps the value as typed, and refuses in secretInputProblem's words", () => {
    const value = ` ${"x".repeat(MIN_SECRET_BYTES)} `;
    expect(secretEntry(" GITHUB_TOKEN\n", value)).toEqual({ ok: true, value: { name: "GITHUB_TOKEN", value } });
    expect(secretEntry("TOKEN", "short")).toEqual({ ok: false, error: secretInputProblem("TOKEN", "short") });
  });
});

describe("grantedSecrets", () => {
  it("lists env secrets and header secrets with where they go and whether they are set", () => {
    const grants = {
      secrets: ["A", "B"],
      fetch: { hosts: ["api.x.test"], headers: { "api.x.test": { Authorization: "Bearer {{C}}", "X-A": "{{A}}" } } },
    };
    expect(grantedSecrets(grants, new Set(["A", "C"]))).toEqual([
      { name: "A", where: "env.secrets.A", isSet: true },
      { name: "B", where: "env.secrets.B", isSet: false },
      { name: "C", where: "Authorization header for api.x.test", isSet: true },
      { name: "A", where: "X-A header for api.x.test", isSet: true },
    ]);
    expect(grantedSecrets({}, undefined)).toEqual([]);
    expect(grantedSecrets({ secrets: ["A"] }, undefined)).toEqual([
      { name: "A", where: "env.secrets.A", isSet: undefined },
    ]);
  });

  it("reads names typed one per line or with commas", () => {
    expect(secretNameList(" A_1,B\n\nC ")).toEqual(["A_1", "B", "C"]);
  });
});
