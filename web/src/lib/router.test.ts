import { describe, expect, it } from "vitest";

import { href, parseRoute, type Route } from "./router";

describe("hash routes", () => {
  it("round-trips every screen", () => {
    const routes: Route[] = [
      { name: "home" },
      { name: "events" },
      { name: "attempt", id: "a1" },
      { name: "starter" },
      { name: "collection" },
      { name: "decks" },
      { name: "deck", id: null },
      { name: "deck", id: "d1" },
      { name: "battle" },
      { name: "profile" },
      { name: "fairness" },
      { name: "author" },
      { name: "content", id: "c1" },
      { name: "content", id: null },
    ];
    for (const route of routes) expect(parseRoute(href(route))).toEqual(route);
  });

  it("names an unknown path instead of guessing", () => {
    expect(parseRoute("#/nowhere/at/all")).toEqual({ name: "not_found", path: "/nowhere/at/all" });
  });
});
