import { readFileSync } from "node:fs";
import { COMPATIBILITY_DATE, WORKER_COMPATIBILITY_FLAGS } from "@gadgets/workshop-backend/compatibility";
import { parse } from "smol-toml";
import { describe, expect, it } from "vitest";
import { readWorkerConfig } from "./worker-config.ts";
import { workerdWorkerParts } from "./workerd-bindings.ts";
import { mainConfig, WRANGLER_TOML } from "./workshop-server.ts";

/** The repository's wrangler.toml as plain TOML, read apart from worker-config.ts. */
const deployed = parse(readFileSync(WRANGLER_TOML, "utf8")) as {
  name: string;
  compatibility_date: string;
  compatibility_flags: string[];
  worker_loaders: { binding: string }[];
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { new_sqlite_classes?: string[] }[];
  assets: { binding: string };
  vars?: Record<string, string>;
};
const parts = workerdWorkerParts(readWorkerConfig(WRANGLER_TOML), { HOST_ONLY: "1" });

describe("the local workerd config and wrangler.toml", () => {
  it("bind every Durable Object of wrangler.toml, each in a SQLite namespace keyed by the Worker's name", () => {
    expect(deployed.durable_objects.bindings.length).toBeGreaterThan(0);
    for (const { name, class_name } of deployed.durable_objects.bindings) {
      expect(parts.bindings).toContain(`(name = "${name}", durableObjectNamespace = "${class_name}")`);
      expect(parts.durableObjectNamespaces).toContain(
        `(className = "${class_name}", uniqueKey = "${deployed.name}-${class_name}", enableSql = true)`,
      );
    }
    const sqlite = deployed.migrations.flatMap((migration) => migration.new_sqlite_classes ?? []);
    expect(deployed.durable_objects.bindings.map((binding) => binding.class_name).sort()).toEqual(sqlite.sort());
  });

  it("bind the Worker Loader, the assets and the vars of wrangler.toml, and the host's vars", () => {
    for (const { binding } of deployed.worker_loaders)
      expect(parts.bindings).toContain(`(name = "${binding}", workerLoader = (id = "${binding}"))`);
    expect(parts.bindings).toContain(`(name = "${deployed.assets.binding}", service = "assets")`);
    for (const [name, value] of Object.entries(deployed.vars ?? {}))
      expect(parts.bindings).toContain(`(name = "${name}", text = ${JSON.stringify(value)})`);
    expect(parts.bindings).toContain(`(name = "HOST_ONLY", text = "1")`);
  });

  it("keep the stored workspaces' ids: the keys they were made with", () => {
    for (const className of ["WorkspaceStore", "ShareStore", "Directory"])
      expect(parts.durableObjectNamespaces).toContain(`uniqueKey = "gadget-workshop-${className}"`);
  });

  it("run the compatibility date and flags that the runners and isolates use too", () => {
    expect(deployed.compatibility_date).toBe(COMPATIBILITY_DATE);
    expect(parts.compatibilityDate).toBe(JSON.stringify(COMPATIBILITY_DATE));
    expect(deployed.compatibility_flags).toEqual([...WORKER_COMPATIBILITY_FLAGS]);
    expect(parts.compatibilityFlags).toBe(
      `[${WORKER_COMPATIBILITY_FLAGS.map((flag) => JSON.stringify(flag)).join(", ")}]`,
    );
  });
});

describe("workerdWorkerParts", () => {
  const config = readWorkerConfig(WRANGLER_TOML);

  it("gives a var the host also sets the host's value, once", () => {
    const { bindings } = workerdWorkerParts(
      { ...config, vars: { GADGET_ORIGIN: "https://g.example" } },
      {
        GADGET_ORIGIN: "http://127.0.0.1:1",
      },
    );
    expect(bindings.filter((binding) => binding.includes("GADGET_ORIGIN"))).toEqual([
      `(name = "GADGET_ORIGIN", text = "http://127.0.0.1:1")`,
    ]);
  });

  it("binds a var that is not a string as its JSON", () => {
    const { bindings } = workerdWorkerParts({ ...config, vars: { LIMITS: { runs: 3 } } });
    expect(bindings).toContain(`(name = "LIMITS", json = "{\\"runs\\":3}")`);
  });
});

describe("the local workerd config's outbound networks", () => {
  it("speak https to the public internet, for granted gadget fetches and for npm registries alike", () => {
    const config = mainConfig(8787, "/data", readWorkerConfig(WRANGLER_TOML), {}, false, 1, 8788);
    for (const service of ["gadget-internet", "registry-internet"]) {
      const line = config.split("\n").find((text) => text.includes(`(name = "${service}", network =`)) ?? "";
      expect(line).toContain('allow = ["public"]');
      // Without it workerd answers every https request "this client has no TLS configuration".
      expect(line).toContain("tlsOptions = (trustBrowserCas = true)");
    }
  });
});
