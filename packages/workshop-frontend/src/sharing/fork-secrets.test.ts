import type { GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { forkSecretsNotice } from "./fork-secrets.ts";

const files = (grants: Record<string, unknown>): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "index.ts", grants }) },
  { path: "index.ts", content: "export default { run: () => 1 };" },
];

describe("forkSecretsNotice", () => {
  it("names the secrets to set, and every host the gadget may fetch from, marking those its headers go to", () => {
    const notice = forkSecretsNotice(
      files({
        secrets: ["API_TOKEN"],
        fetch: {
          hosts: ["api.example.com", "127.0.0.1:8080"],
          headers: { "api.example.com": { Authorization: "Bearer {{GITHUB_TOKEN}}" } },
        },
      }),
    );
    expect(notice).toBe(
      "This gadget asks for the secrets API_TOKEN, GITHUB_TOKEN and may fetch from api.example.com (with secrets in the headers), 127.0.0.1:8080. " +
        "Its runs here get none, and a fork does not bring the author's: set API_TOKEN, GITHUB_TOKEN in your workspace (Manage secrets…) to run your copy. " +
        "Your copy runs with your secrets, so read its code first.",
    );
  });

  it("leaves out fetch for a gadget granted secrets but no hosts", () => {
    const notice = forkSecretsNotice(files({ secrets: ["API_TOKEN"], kv: true }));
    expect(notice).toMatch(/^This gadget asks for the secrets API_TOKEN\. /);
    expect(notice).toContain("set API_TOKEN in your workspace");
  });

  it("says nothing for a gadget without secret grants, even one granted hosts, or a manifest that does not parse", () => {
    expect(forkSecretsNotice(files({ kv: true, fetch: { hosts: ["api.example.com"] } }))).toBeUndefined();
    expect(forkSecretsNotice([{ path: "gadget.json", content: "{" }])).toBeUndefined();
    // Only hosts the manifest schema takes reach the notice: markup in a host refuses the whole manifest.
    expect(
      forkSecretsNotice(files({ secrets: ["A"], fetch: { hosts: ["<img src=x onerror=alert(1)>"] } })),
    ).toBeUndefined();
  });
});
