import type { GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { forkSecretsNotice } from "./fork-secrets.ts";

const files = (grants: Record<string, unknown>): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "index.ts", grants }) },
  { path: "index.ts", content: "export default { run: () => 1 };" },
];

describe("forkSecretsNotice", () => {
  it("names the secrets a shared gadget grants itself, and the hosts its headers go to", () => {
    const notice = forkSecretsNotice(
      files({
        secrets: ["API_TOKEN"],
        fetch: {
          hosts: ["api.example.com"],
          headers: { "api.example.com": { Authorization: "Bearer {{GITHUB_TOKEN}}" } },
        },
      }),
    );
    expect(notice).toContain("the secrets API_TOKEN, GITHUB_TOKEN and sends some to api.example.com");
    expect(notice).toContain("read its code before you run your copy");
  });

  it("says nothing for a gadget without secret grants, or a manifest that does not parse", () => {
    expect(forkSecretsNotice(files({ kv: true }))).toBeUndefined();
    expect(forkSecretsNotice([{ path: "gadget.json", content: "{" }])).toBeUndefined();
  });
});
