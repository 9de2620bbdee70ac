import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";
import { precompress } from "./precompress.ts";

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // Monaco's TypeScript worker alone is ~7 MB; it is loaded only when an editor opens.
    chunkSizeWarningLimit: 8000,
    rollupOptions: {
      input: { main: "index.html", embed: "embed.html" },
    },
  },
  worker: { format: "es" },
});
