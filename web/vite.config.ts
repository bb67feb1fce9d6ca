/// <reference types="vitest/config" />
import preact from "@preact/preset-vite";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

import { defineConfig, type Plugin } from "vite";

// The API reference the gateway serves at /docs (gateway/apidocs.py): Swagger UI's
// standalone files, from the npm lock, copied into the build under swagger-ui/ so that
// the page loads nothing from another host.
function apiReference(): Plugin {
  const from = new URL("node_modules/swagger-ui-dist/", import.meta.url);
  return {
    name: "deckyard-api-reference",
    apply: "build",
    generateBundle() {
      for (const name of ["swagger-ui-bundle.js", "swagger-ui.css"]) {
        const source = readFileSync(fileURLToPath(new URL(name, from)), "utf8")
          // its source map is not copied: no request for a file that is not there
          .replace(/\n\/[/*]# sourceMappingURL=\S+\s*$/, "\n");
        this.emitFile({ type: "asset", fileName: `swagger-ui/${name}`, source });
      }
    },
  };
}

// One bundle, no CDN: fonts are the system's, icons inline, Leaflet's code and CSS bundled.
export default defineConfig({
  plugins: [preact(), apiReference()],
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
