/**
 * Hash routes (#/quest/events, #/quest/attempts/<id>): the gateway serves one index.html
 * at `/`, so the client never needs the server to know its paths.
 */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { name: "home" }
  | { name: "events" }
  | { name: "attempt"; id: string }
  | { name: "starter" }
  | { name: "collection" }
  | { name: "decks" }
  | { name: "deck"; id: string | null }
  | { name: "battle" }
  | { name: "q_versus" }
  | { name: "q_match"; id: string }
  | { name: "profile" }
  | { name: "fairness" }
  | { name: "author" }
  | { name: "content"; id: string | null }
  | { name: "review" }
  | { name: "tk_home" }
  | { name: "tk_decks" }
  | { name: "tk_deck"; id: string | null }
  | { name: "tk_plans" }
  | { name: "tk_plan"; id: string | null }
  | { name: "tk_arena" }
  | { name: "tk_attacks" }
  | { name: "tk_attack"; id: string }
  | { name: "tk_reports" }
  | { name: "tk_report"; id: string }
  | { name: "tk_packs" }
  | { name: "cv_library" }
  | { name: "cv_collection" }
  | { name: "cv_decks" }
  | { name: "cv_deck"; id: string | null }
  | { name: "cv_match" }
  | { name: "cv_versus" }
  | { name: "cv_crafting" }
  | { name: "cv_packs" }
  | { name: "cv_wallet" }
  | { name: "not_found"; path: string };

/** The three games the shell switches between; every route belongs to one (or none). */
export type Game = "quest" | "terrakard" | "chronovore";

export function gameOf(route: Route): Game | null {
  if (route.name.startsWith("tk_")) return "terrakard";
  if (route.name.startsWith("cv_")) return "chronovore";
  if (["home", "events", "attempt", "starter", "collection", "decks", "deck", "battle", "q_versus", "q_match"].includes(route.name)) return "quest";
  return null;
}

const orNew = (id: string | undefined): string | null => (id === "new" || id === undefined ? null : id);

export function parseRoute(hash: string): Route {
  const path = hash.replace(/^#/, "") || "/";
  const parts = path.split("/").filter(Boolean);
  const [a, b, c] = parts;
  if (parts.length === 0) return { name: "home" };
  if (a === "quest") {
    if (b === "events" && !c) return { name: "events" };
    if (b === "attempts" && c) return { name: "attempt", id: c };
    if (b === "starter") return { name: "starter" };
    if (b === "collection") return { name: "collection" };
    if (b === "decks" && !c) return { name: "decks" };
    if (b === "decks" && c) return { name: "deck", id: c === "new" ? null : c };
    if (b === "battle") return { name: "battle" };
    if (b === "versus" && !c) return { name: "q_versus" };
    if (b === "matches" && c) return { name: "q_match", id: c };
  }
  if (a === "terrakard") {
    if (!b) return { name: "tk_home" };
    if (b === "decks") return c ? { name: "tk_deck", id: orNew(c) } : { name: "tk_decks" };
    if (b === "plans") return c ? { name: "tk_plan", id: orNew(c) } : { name: "tk_plans" };
    if (b === "arena" && !c) return { name: "tk_arena" };
    if (b === "attacks") return c ? { name: "tk_attack", id: c } : { name: "tk_attacks" };
    if (b === "reports") return c ? { name: "tk_report", id: c } : { name: "tk_reports" };
    if (b === "packs" && !c) return { name: "tk_packs" };
  }
  if (a === "chronovore") {
    if (!b || (b === "library" && !c)) return { name: "cv_library" };
    if (b === "collection" && !c) return { name: "cv_collection" };
    if (b === "decks") return c ? { name: "cv_deck", id: orNew(c) } : { name: "cv_decks" };
    if (b === "match" && !c) return { name: "cv_match" };
    if (b === "versus" && !c) return { name: "cv_versus" };
    if (b === "crafting" && !c) return { name: "cv_crafting" };
    if (b === "packs" && !c) return { name: "cv_packs" };
    if (b === "wallet" && !c) return { name: "cv_wallet" };
  }
  if (a === "profile") return { name: "profile" };
  if (a === "fairness" && !b) return { name: "fairness" };
  if (a === "author" && !b) return { name: "author" };
  if (a === "author" && b === "review" && !c) return { name: "review" };
  if (a === "author" && b) return { name: "content", id: b === "new" ? null : b };
  return { name: "not_found", path };
}

export function href(route: Route): string {
  switch (route.name) {
    case "home":
      return "#/";
    case "events":
      return "#/quest/events";
    case "attempt":
      return `#/quest/attempts/${route.id}`;
    case "starter":
      return "#/quest/starter";
    case "collection":
      return "#/quest/collection";
    case "decks":
      return "#/quest/decks";
    case "deck":
      return `#/quest/decks/${route.id ?? "new"}`;
    case "battle":
      return "#/quest/battle";
    case "q_versus":
      return "#/quest/versus";
    case "q_match":
      return `#/quest/matches/${route.id}`;
    case "profile":
      return "#/profile";
    case "fairness":
      return "#/fairness";
    case "author":
      return "#/author";
    case "content":
      return `#/author/${route.id ?? "new"}`;
    case "review":
      return "#/author/review";
    case "tk_home":
      return "#/terrakard";
    case "tk_decks":
      return "#/terrakard/decks";
    case "tk_deck":
      return `#/terrakard/decks/${route.id ?? "new"}`;
    case "tk_plans":
      return "#/terrakard/plans";
    case "tk_plan":
      return `#/terrakard/plans/${route.id ?? "new"}`;
    case "tk_arena":
      return "#/terrakard/arena";
    case "tk_attacks":
      return "#/terrakard/attacks";
    case "tk_attack":
      return `#/terrakard/attacks/${route.id}`;
    case "tk_reports":
      return "#/terrakard/reports";
    case "tk_report":
      return `#/terrakard/reports/${route.id}`;
    case "tk_packs":
      return "#/terrakard/packs";
    case "cv_library":
      return "#/chronovore/library";
    case "cv_collection":
      return "#/chronovore/collection";
    case "cv_decks":
      return "#/chronovore/decks";
    case "cv_deck":
      return `#/chronovore/decks/${route.id ?? "new"}`;
    case "cv_match":
      return "#/chronovore/match";
    case "cv_versus":
      return "#/chronovore/versus";
    case "cv_crafting":
      return "#/chronovore/crafting";
    case "cv_packs":
      return "#/chronovore/packs";
    case "cv_wallet":
      return "#/chronovore/wallet";
    case "not_found":
      return `#${route.path}`;
  }
}

export function navigate(route: Route): void {
  window.location.hash = href(route);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(window.location.hash));
  useEffect(() => {
    const changed = () => setRoute(parseRoute(window.location.hash));
    window.addEventListener("hashchange", changed);
    return () => window.removeEventListener("hashchange", changed);
  }, []);
  return route;
}
