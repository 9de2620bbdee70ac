import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress.ts";

/**
 * Two builds into one `dist`: the IDE (`index.html`) and the embed (`embed.html`, `--mode embed`). Built
 * apart, the embed shares no chunk with the IDE, so its first paint is one script and one stylesheet.
 */
export default defineConfig(({ mode }) => {
  const embed = mode === "embed";
  return {
    plugins: [react(), tailwindcss(), precompress()],
    build: {
      outDir: "dist",
      // The IDE's build runs first and empties the folder; the embed's adds to it.
      emptyOutDir: !embed,
      // Monaco's TypeScript worker alone is ~7 MB; it is loaded only when an editor opens.
      chunkSizeWarningLimit: 8000,
      rollupOptions: { input: embed ? { embed: "embed.html" } : { main: "index.html" } },
    },
    worker: { format: "es" },
  };
});
