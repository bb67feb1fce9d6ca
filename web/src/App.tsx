/** The shell: who is signed in, the navigation, and the screen the hash names. */
import { useEffect, useState } from "preact/hooks";

import { isAuthor, onSession, type Session, session } from "./auth/session";
import { signOut } from "./auth/signOut";
import { type Game, gameOf, href, type Route, useRoute } from "./lib/router";
import { Attempt } from "./screens/attempt/Attempt";
import { ContentEditor } from "./screens/author/ContentEditor";
import { ContentList } from "./screens/author/ContentList";
import { ReviewQueue } from "./screens/author/ReviewQueue";
import { Battle } from "./screens/battle/Battle";
import { PvpBattle } from "./screens/battle/PvpBattle";
import { QuestVersus } from "./screens/battle/QuestVersus";
import { CvCollection, CvDeckEditor, CvDecks } from "./screens/chronovore/Decks";
import { Library } from "./screens/chronovore/Library";
import { Crafting } from "./screens/chronovore/Crafting";
import { Match } from "./screens/chronovore/Match";
import { Versus } from "./screens/chronovore/Versus";
import { Collection } from "./screens/collection/Collection";
import { DeckBuilder } from "./screens/decks/DeckBuilder";
import { Decks } from "./screens/decks/Decks";
import { Events } from "./screens/events/Events";
import { Fairness } from "./screens/fairness/Fairness";
import { Home } from "./screens/home/Home";
import { Packs, Wallet } from "./screens/economy/Packs";
import { Profile } from "./screens/profile/Profile";
import { SignIn } from "./screens/signin/SignIn";
import { Starter } from "./screens/starter/Starter";
import { Arena } from "./screens/terrakard/Arena";
import { Attack } from "./screens/terrakard/Attack";
import { AttackHistory } from "./screens/terrakard/AttackHistory";
import { Reports, ReportView } from "./screens/terrakard/Reports";
import { TkDeckEditor, TkDecks } from "./screens/terrakard/TkDecks";
import { TkHome } from "./screens/terrakard/TkHome";
import { TkPlanEditor, TkPlans } from "./screens/terrakard/TkPlans";
import { startChannel, stopChannel, useStreamMode } from "./stream/live";
import { Screen } from "./ui/components";

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
    case "q_versus":
      return <QuestVersus />;
    case "q_match":
      return <PvpBattle key={route.id} id={route.id} />;
    case "profile":
      return <Profile onSignOut={() => signOut(current)} />;
    case "fairness":
      return <Fairness />;
    case "author":
      return <ContentList />;
    case "content":
      return <ContentEditor key={route.id ?? "new"} id={route.id} />;
    case "review":
      return <ReviewQueue />;
    case "tk_home":
      return <TkHome />;
    case "tk_decks":
      return <TkDecks />;
    case "tk_deck":
      return <TkDeckEditor key={route.id ?? "new"} id={route.id} />;
    case "tk_plans":
      return <TkPlans />;
    case "tk_plan":
      return <TkPlanEditor key={route.id ?? "new"} id={route.id} />;
    case "tk_arena":
      return <Arena />;
    case "tk_attacks":
      return <AttackHistory />;
    case "tk_attack":
      return <Attack key={route.id} id={route.id} />;
    case "tk_reports":
      return <Reports />;
    case "tk_report":
      return <ReportView key={route.id} id={route.id} />;
    case "tk_packs":
      return <Packs key="terrakard" game="terrakard" />;
    case "cv_library":
      return <Library />;
    case "cv_collection":
      return <CvCollection />;
    case "cv_decks":
      return <CvDecks />;
    case "cv_deck":
      return <CvDeckEditor key={route.id ?? "new"} id={route.id} />;
    case "cv_match":
      return <Match />;
    case "cv_versus":
      return <Versus />;
    case "cv_crafting":
      return <Crafting />;
    case "cv_packs":
      return <Packs key="chronovore" game="chronovore" />;
    case "cv_wallet":
      return <Wallet game="chronovore" />;
    case "not_found":
      return (
        <Screen title="Not found">
          <p>There is no page at {route.path}. <a href="#/">Go home</a>.</p>
        </Screen>
      );
  }
}

const GAMES: [Game, string, Route][] = [
  ["quest", "Quest", { name: "home" }],
  ["terrakard", "TerraKard", { name: "tk_home" }],
  ["chronovore", "Chronovore", { name: "cv_library" }],
];

/** The three games: the one you are in is marked (in words for screen readers too). */
function GameSwitcher({ current }: { current: Game | null }) {
  return (
    <nav aria-label="Games" class="games">
      <ul>
        {GAMES.map(([game, label, target]) => (
          <li key={game}>
            <a href={href(target)} aria-current={current === game ? "true" : undefined}>{label}</a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

type NavLink = [string, Route, Route["name"][]?];

/** The current game's screens (Quest's for the pages that belong to no game). */
function gameLinks(game: Game): NavLink[] {
  switch (game) {
    case "quest":
      return [
        ["Events", { name: "events" }, ["attempt"]],
        ["Cards", { name: "collection" }],
        ["Decks", { name: "decks" }, ["deck"]],
        ["Battle", { name: "battle" }],
        ["Versus", { name: "q_versus" }, ["q_match"]],
      ];
    case "terrakard":
      return [
        ["Collection", { name: "tk_home" }],
        ["Attack decks", { name: "tk_decks" }, ["tk_deck"]],
        ["Defense plans", { name: "tk_plans" }, ["tk_plan"]],
        ["Arena", { name: "tk_arena" }],
        ["Your attacks", { name: "tk_attacks" }, ["tk_attack"]],
        ["Reports", { name: "tk_reports" }, ["tk_report"]],
        ["Packs", { name: "tk_packs" }],
      ];
    case "chronovore":
      return [
        ["Library", { name: "cv_library" }],
        ["Cards", { name: "cv_collection" }],
        ["Decks", { name: "cv_decks" }, ["cv_deck"]],
        ["Match", { name: "cv_match" }],
        ["Versus", { name: "cv_versus" }],
        ["Packs", { name: "cv_packs" }],
        ["Crafting", { name: "cv_crafting" }],
        ["Wallet", { name: "cv_wallet" }],
      ];
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
        <header>
          <p class="brand">Deckyard</p>
          <GameSwitcher current={gameOf(route)} />
        </header>
        <main id="main">
          {expired && <p role="alert">Your sign-in expired. Sign in again.</p>}
          {route.name === "cv_library" ? (
            <>
              <Library />
              <p class="callout">
                To build decks, open packs and play, <a href="#/">sign in</a>.
              </p>
            </>
          ) : (
            <SignIn />
          )}
        </main>
      </>
    );
  }
  return (
    <>
      <a class="skip" href="#main">Skip to content</a>
      <header>
        <p class="brand"><a href="#/">Deckyard</a></p>
        <GameSwitcher current={gameOf(route)} />
        <nav aria-label="Main">
          <ul>
            {gameLinks(gameOf(route) ?? "quest").map(([label, target, also]) => (
              <li key={label}>
                <a href={href(target)} aria-current={route.name === target.name || also?.includes(route.name) ? "page" : undefined}>{label}</a>
              </li>
            ))}
            {isAuthor(current) && <li><a href={href({ name: "author" })} aria-current={["author", "content", "review"].includes(route.name) ? "page" : undefined}>Authoring</a></li>}
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
