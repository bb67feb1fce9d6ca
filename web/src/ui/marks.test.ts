/**
 * Icons that need no emoji font: every mark of the client is inline SVG (ui/emblems.tsx) or
 * a character the system fonts have (✓ ✗ ★), never an emoji, which a phone or the test
 * browser without an emoji font shows as an empty box.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

import { describe, expect, it } from "vitest";

const SOURCES = join(__dirname, "..");

function sources(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [path] : [];
  });
}

describe("the client's marks", () => {
  it("use no emoji anywhere in the screens", () => {
    const found = sources(SOURCES).flatMap((path) =>
      readFileSync(path, "utf8")
        .split("\n")
        .flatMap((line, n) => ((line.match(/\p{Extended_Pictographic}/gu) ?? []).length ? [`${path.slice(SOURCES.length + 1)}:${n + 1}: ${line.trim()}`] : [])),
    );
    expect(found).toEqual([]);
  });
});
