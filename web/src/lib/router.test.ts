import { describe, expect, it } from "vitest";

import { gameOf, href, parseRoute, type Route } from "./router";

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
      { name: "q_versus" },
      { name: "q_match", id: "m1" },
      { name: "profile" },
      { name: "fairness" },
      { name: "author" },
      { name: "content", id: "c1" },
      { name: "content", id: null },
      { name: "review" },
      { name: "tk_home" },
      { name: "tk_decks" },
      { name: "tk_deck", id: null },
      { name: "tk_deck", id: "d2" },
      { name: "tk_plans" },
      { name: "tk_plan", id: null },
      { name: "tk_plan", id: "p1" },
      { name: "tk_arena" },
      { name: "tk_attacks" },
      { name: "tk_attack", id: "a2" },
      { name: "tk_reports" },
      { name: "tk_report", id: "r1" },
      { name: "tk_packs" },
      { name: "cv_library" },
      { name: "cv_collection" },
      { name: "cv_decks" },
      { name: "cv_deck", id: null },
      { name: "cv_deck", id: "d3" },
      { name: "cv_match" },
      { name: "cv_versus" },
      { name: "cv_crafting" },
      { name: "cv_packs" },
      { name: "cv_wallet" },
    ];
    for (const route of routes) expect(parseRoute(href(route))).toEqual(route);
  });

  it("knows which game a screen belongs to", () => {
    expect(gameOf(parseRoute("#/quest/battle"))).toBe("quest");
    expect(gameOf(parseRoute("#/quest/versus"))).toBe("quest");
    expect(gameOf(parseRoute("#/quest/matches/m1"))).toBe("quest");
    expect(gameOf(parseRoute("#/terrakard/arena"))).toBe("terrakard");
    expect(gameOf(parseRoute("#/chronovore"))).toBe("chronovore");
    expect(gameOf(parseRoute("#/profile"))).toBeNull();
  });

  it("names an unknown path instead of guessing", () => {
    expect(parseRoute("#/nowhere/at/all")).toEqual({ name: "not_found", path: "/nowhere/at/all" });
  });
});
