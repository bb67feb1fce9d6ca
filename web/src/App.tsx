/** The shell: who is signed in, the navigation, and the screen the hash names. */
import { useEffect, useState } from "preact/hooks";

import { signOutOfAuth0 } from "./auth/auth0";
import { isAuthor, onSession, type Session, session, setSession } from "./auth/session";
import { config } from "./config";
import { href, type Route, useRoute } from "./lib/router";
import { Attempt } from "./screens/attempt/Attempt";
import { ContentEditor } from "./screens/author/ContentEditor";
import { ContentList } from "./screens/author/ContentList";
import { Battle } from "./screens/battle/Battle";
import { Collection } from "./screens/collection/Collection";
import { DeckBuilder } from "./screens/decks/DeckBuilder";
import { Decks } from "./screens/decks/Decks";
import { Events } from "./screens/events/Events";
import { Fairness } from "./screens/fairness/Fairness";
import { Home } from "./screens/home/Home";
import { Profile } from "./screens/profile/Profile";
import { SignIn } from "./screens/signin/SignIn";
import { Starter } from "./screens/starter/Starter";
import { startChannel, stopChannel, useStreamMode } from "./stream/live";
import { Screen } from "./ui/components";

function signOut(current: Session | null): void {
  setSession(null);
  const auth0 = config().auth0;
  if (current?.via === "auth0" && auth0) void signOutOfAuth0(auth0);
}

function screenFor(route: Route, current: Session | null) {
  switch (route.name) {
    case "home":
      return <Home />;
    case "events":
      return <Events />;
    case "attempt":
      return <Attempt id={route.id} />;
    case "starter":
      return <Starter />;
    case "collection":
      return <Collection />;
    case "decks":
      return <Decks />;
    case "deck":
      return <DeckBuilder key={route.id ?? "new"} id={route.id} />;
    case "battle":
      return <Battle />;
    case "profile":
      return <Profile onSignOut={() => signOut(current)} />;
    case "fairness":
      return <Fairness />;
    case "author":
      return <ContentList />;
    case "content":
      return <ContentEditor key={route.id ?? "new"} id={route.id} />;
    case "not_found":
      return (
        <Screen title="Not found">
          <p>There is no page at {route.path}. <a href="#/">Go home</a>.</p>
        </Screen>
      );
  }
}

function ConnectionNote() {
  const mode = useStreamMode();
  if (mode === "live" || mode === "stopped") return null;
  return (
    <p class="connection" role="status">
      {mode === "connecting" ? "Connecting for live updates…" : "Live updates are unavailable; refreshing every few seconds."}
    </p>
  );
}

export function App() {
  const [current, setCurrent] = useState<Session | null>(session());
  const route = useRoute();
  useEffect(() => onSession(setCurrent), []);
  useEffect(() => {
    if (!current) return;
    startChannel();
    return stopChannel;
  }, [current?.token]);

  const expired = current && current.expiresAt * 1000 < Date.now();
  if (!current || expired) {
    return (
      <>
        <a class="skip" href="#main">Skip to content</a>
        <header><p class="brand">Deckyard</p></header>
        <main id="main">
          {expired && <p role="alert">Your sign-in expired. Sign in again.</p>}
          <SignIn />
        </main>
      </>
    );
  }
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header>
        <p class="brand"><a href="#/">Deckyard</a></p>
        <nav aria-label="Main">
          <ul>
            <li><a href={href({ name: "events" })} aria-current={route.name === "events" ? "page" : undefined}>Events</a></li>
            <li><a href={href({ name: "collection" })} aria-current={route.name === "collection" ? "page" : undefined}>Cards</a></li>
            <li><a href={href({ name: "decks" })} aria-current={route.name === "decks" || route.name === "deck" ? "page" : undefined}>Decks</a></li>
            <li><a href={href({ name: "battle" })} aria-current={route.name === "battle" ? "page" : undefined}>Battle</a></li>
            {isAuthor(current) && <li><a href={href({ name: "author" })} aria-current={route.name === "author" || route.name === "content" ? "page" : undefined}>Authoring</a></li>}
            <li><a href={href({ name: "fairness" })} aria-current={route.name === "fairness" ? "page" : undefined}>Fairness</a></li>
            <li><a href={href({ name: "profile" })} aria-current={route.name === "profile" ? "page" : undefined}>Profile</a></li>
          </ul>
        </nav>
      </header>
      <ConnectionNote />
      <main id="main">{screenFor(route, current)}</main>
    </>
  );
}
