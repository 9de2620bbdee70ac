import type { GadgetFile } from "@gadgets/workshop-shared";
import { describe, expect, it } from "vitest";
import { globalFetchHint, grantFetchEdit } from "./fetch-hint.ts";

const refused =
  "This worker is not permitted to access the internet via global functions like fetch(). It must use capabilities (such as bindings in 'env') to talk to the outside world.";
const files = (code: string, grants: unknown = {}): GadgetFile[] => [
  { path: "gadget.json", content: JSON.stringify({ name: "g", entry: "index.ts", grants }) },
  { path: "index.ts", content: code },
];

describe("globalFetchHint", () => {
  it("points at env.fetch and Grants, naming the host a literal URL fetches", () => {
    const hint = globalFetchHint(
      refused,
      files('export default { async run(_, env) { return fetch("http://127.0.0.1:8080/a"); } };'),
    );
    expect(hint?.text).toMatch(/env\.fetch.*Grants/);
    expect(hint?.host).toBe("127.0.0.1:8080");
    // biome-ignore lint/suspicious/noTemplateCurlyInString: gadget source holding a template literal
    expect(globalFetchHint(refused, files("fetch(`https://api.example.com/${id}`)"))?.host).toBe("api.example.com");
  });

  it("has no host for a URL only known at run time, and no hint for other errors", () => {
    expect(globalFetchHint(refused, files("fetch(url)"))).toEqual({ text: expect.any(String) });
    expect(globalFetchHint("TypeError: x is undefined", files('fetch("https://a.example")'))).toBeUndefined();
  });
});

describe("grantFetchEdit", () => {
  it("adds the host to the grants it keeps, and makes the global fetch env.fetch where run has env", () => {
    const code =
      'export default { async run(_: unknown, env: GadgetEnv) { const r = await fetch("http://h:1/"); return env.fetch && prefetch; } };';
    const edit = grantFetchEdit(files(code, { kv: true, fetch: { hosts: ["a.example"] } }), "h:1");
    const manifest = JSON.parse(edit?.updates[0]?.content ?? "");
    expect(manifest.grants).toEqual({ kv: true, fetch: { hosts: ["a.example", "h:1"] } });
    expect(edit?.updates[1]?.content).toContain('await env.fetch("http://h:1/")');
    expect(edit?.updates[1]?.content).toContain("return env.fetch && prefetch;");
    expect(edit?.leftAlone).toEqual([]);
  });

  it("leaves a file whose run has no env to the person, and refuses a manifest that is not JSON", () => {
    const edit = grantFetchEdit(files('export default { async run() { return fetch("http://h/"); } };'), "h");
    expect(edit?.updates.map((file) => file.path)).toEqual(["gadget.json"]);
    expect(edit?.leftAlone).toEqual(["index.ts"]);
    expect(grantFetchEdit([{ path: "gadget.json", content: "{" }], "h")).toBeUndefined();
    expect(
      JSON.parse(grantFetchEdit(files("", { fetch: { hosts: ["h"] } }), "h")?.updates[0]?.content ?? "").grants.fetch
        .hosts,
    ).toEqual(["h"]);
  });
});
