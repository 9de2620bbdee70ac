/** Formats a gadget file with Prettier, loaded in the page on first use (never from a CDN). */
export async function formatSource(path: string, content: string): Promise<string> {
  const parser = path.endsWith(".ts")
    ? "typescript"
    : path.endsWith(".json")
      ? "json"
      : /\.m?js$/.test(path)
        ? "babel"
        : undefined;
  if (!parser) return content;
  const [prettier, typescript, estree, babel] = await Promise.all([
    import("prettier/standalone"),
    import("prettier/plugins/typescript"),
    import("prettier/plugins/estree"),
    import("prettier/plugins/babel"),
  ]);
  return prettier.format(content, { parser, plugins: [typescript, estree, babel], printWidth: 100 });
}
