import { fileURLToPath } from "node:url";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

const server = "http://127.0.0.1:3000";

// Same paths the production server answers itself; everything else is the single-page app.
const proxy: Record<string, string | ProxyOptions> = {
  "/api": server,
  "/auth": server,
  "/data-dictionary": server,
  "/ws": { target: server, ws: true },
  "/healthz": server,
  "/app-config.json": server,
};

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [react()],
  build: {
    outDir: "dist",
    emptyOutDir: true,
    // No data: URIs for our own assets, so a strict CSP (font-src 'self') suffices.
    assetsInlineLimit: 0,
    rolldownOptions: {
      // The client takes only types and constants from the contract: let its zod schemas go.
      treeshake: { manualPureFunctions: ["z"] },
    },
  },
  server: { proxy },
  preview: { proxy },
});
