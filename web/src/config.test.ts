import { describe, expect, it } from "vitest";

import { API_PREFIX, apiBase, buildTimeConfig, mergeConfig, streamUrl } from "./config";

describe("configuration", () => {
  it("puts the one prefix constant after the API's origin", () => {
    const cfg = mergeConfig(buildTimeConfig(), { apiOrigin: "https://api.example.com/" });
    expect(apiBase(cfg)).toBe(`https://api.example.com${API_PREFIX}`);
  });

  it("opens the push channel on the API's origin, or on the page's", () => {
    const page = { origin: "https://play.example.com" } as Location;
    expect(streamUrl(mergeConfig(buildTimeConfig(), { apiOrigin: "" }), page)).toBe(
      `wss://play.example.com${API_PREFIX}/stream`,
    );
    expect(streamUrl(mergeConfig(buildTimeConfig(), { apiOrigin: "http://127.0.0.1:8601" }), page)).toBe(
      `ws://127.0.0.1:8601${API_PREFIX}/stream`,
    );
  });

  it("lets config.json override the build, and ignores what it does not know", () => {
    const merged = mergeConfig(buildTimeConfig(), {
      tilesUrl: "https://tiles.example.com/{z}/{x}/{y}.png",
      pollSeconds: -1,
      ...({ surprise: true } as object),
    });
    expect(merged.tilesUrl).toBe("https://tiles.example.com/{z}/{x}/{y}.png");
    expect(merged.pollSeconds).toBe(5);
    expect("surprise" in merged).toBe(false);
  });
});
