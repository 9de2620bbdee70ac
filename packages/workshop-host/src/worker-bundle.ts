/**
 * Bundles a Worker entry into one ES module with esbuild, the way wrangler would for deploy: the
 * runtime's own modules (`cloudflare:*`, `node:*`) stay imports, names are not kept (`keep_names = false`
 * in wrangler.toml).
 */

import { build } from "esbuild";

export async function bundleWorker(entry: string): Promise<string> {
  const result = await build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: "esm",
    platform: "neutral",
    target: "es2023",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["module", "main"],
    external: ["cloudflare:*", "node:*"],
    keepNames: false,
    minify: false,
    sourcemap: false,
    logLevel: "silent",
  });
  const output = result.outputFiles[0];
  if (!output) throw new Error(`Bundling ${entry} produced no output.`);
  return output.text;
}
