/// <reference types="vitest/config" />
import preact from "@preact/preset-vite";
import { fileURLToPath } from "node:url";

import { defineConfig } from "vite";

// One bundle, no CDN: fonts are the system's, icons inline, Leaflet's code and CSS bundled.
export default defineConfig({
  plugins: [preact()],
  base: "./",
  build: { outDir: "dist", sourcemap: true, chunkSizeWarningLimit: 800 },
  // The development sign-in reads the project's development key (gateway/dev_signing_key.pem,
  // public knowledge): the dev server and Vitest may read the repository, and *.pem is
  // taken off Vite's default deny list (the repository holds no other key).
  server: {
    fs: {
      allow: [fileURLToPath(new URL("..", import.meta.url))],
      deny: [".env", ".env.*", "*.crt", "*.key", "**/.git/**"],
    },
  },
  test: { environment: "jsdom", include: ["src/**/*.test.{ts,tsx}"] },
});
