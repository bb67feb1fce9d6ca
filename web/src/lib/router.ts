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
  | { name: "profile" }
  | { name: "fairness" }
  | { name: "author" }
  | { name: "content"; id: string | null }
  | { name: "not_found"; path: string };

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
  }
  if (a === "profile") return { name: "profile" };
  if (a === "fairness" && !b) return { name: "fairness" };
  if (a === "author" && !b) return { name: "author" };
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
    case "profile":
      return "#/profile";
    case "fairness":
      return "#/fairness";
    case "author":
      return "#/author";
    case "content":
      return `#/author/${route.id ?? "new"}`;
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
