/// <reference types="vitest/config" />
import preact from "@preact/preset-vite";
import { defineConfig } from "vite";

// One bundle, no CDN: fonts are the system's, icons inline, Leaflet's code and CSS bundled.
export default defineConfig({
  plugins: [preact()],
  base: "./",
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 800 },
  // The development sign-in reads the project's development key (gateway/dev_signing_key.pem).
  server: { fs: { allow: [".."] } },
  test: { environment: "jsdom", include: ["src/**/*.test.{ts,tsx}"] },
});
