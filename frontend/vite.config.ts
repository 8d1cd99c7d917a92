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
  // a test's time bound catches a hang, never slowness: a loaded 2-core machine can take seconds
  // over a 100k-event fold (speed targets live in bench/, not in tests)
  test: { environment: "node", include: ["tests/**/*.test.ts"], testTimeout: 120_000, hookTimeout: 120_000 },
});
