import { defineConfig } from "vitest/config";

// The server (FastAPI) serves dist/ at `/`; in `npm run dev` the API and websocket are proxied.
export default defineConfig({
  build: { outDir: "dist", emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  worker: { format: "es" },
  server: {
    proxy: {
      "/api": "http://127.0.0.1:8000",
      "/healthz": "http://127.0.0.1:8000",
      "/ws": { target: "ws://127.0.0.1:8000", ws: true },
    },
  },
  test: { environment: "node", include: ["tests/**/*.test.ts"] },
});
