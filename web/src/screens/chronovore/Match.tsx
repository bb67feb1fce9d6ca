/**
 * A Chronovore match against the computer: choose a legal deck and start, then the board
 * (MatchBoard: the lock-in row, the 2-minute timer, the resolution pair by pair).
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { MatchBoard, type MatchView as View } from "./MatchBoard";

/**
 * Your match under way, or null. One match against the computer at a time, so one under
 * way is your newest: the list's first says whether there is one. A player with none asks
 * for nothing that is not there (/matches/active would answer 404, an error in the
 * browser's console on a normal page).
 */
async function activeMatch(): Promise<View | null> {
  const [newest] = await listed(api.GET("/chronovore/matches", { params: { query: { limit: 1 } } }));
  if (newest?.status !== "active" || !newest.id) return null;
  return unwrap(api.GET("/chronovore/matches/{match_id}", { params: { path: { match_id: newest.id } } }));
}

function Start({ onStarted }: { onStarted: (v: View) => void }) {
  const decks = useResource(() => listed(api.GET("/chronovore/decks")));
  const [deckId, setDeckId] = useState("");
  const action = useAction();
  const legal = (decks.data ?? []).filter((d) => d.legal);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);
  return (
    <form onSubmit={(e) => { e.preventDefault(); void action.run(async () => onStarted(await unwrap(api.POST("/chronovore/matches", { body: { deckId } })))); }}>
      {decks.loading && <Loading what="your decks" />}
      {!decks.loading && legal.length === 0 && (
        <p>You need a legal deck first. <a href={href({ name: "cv_deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <>
          <label for="cv-match-deck">Deck</label>
          <select id="cv-match-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
          </select>
          <button type="submit" disabled={!deckId || action.busy}>Play the computer</button>
        </>
      )}
      <ProblemBox problem={action.problem ?? decks.problem} title="The match did not start:" />
    </form>
  );
}

export function Match() {
  const match = useResource(activeMatch);
  // The active match is gone once it ends: the last view stays on screen.
  const [finished, setFinished] = useState<View | null>(null);
  const view = match.data ?? finished;
  const shown = (next: View) => {
    if (next.status === "finished") {
      setFinished(next);
      match.set(null);
    } else match.set(next);
  };

  if (match.loading) return <Screen title="Chronovore match"><Loading what="your match" /></Screen>;
  if (!view) {
    return (
      <Screen title="Play the computer">
        <ProblemBox problem={match.problem} />
        <Start onStarted={(v) => { setFinished(null); match.set(v); }} />
      </Screen>
    );
  }
  return (
    <Screen title="Chronovore match">
      <MatchBoard key={view.id} view={view} onView={shown} reload={match.reload} loadProblem={match.problem}>
        <p>
          <a href={href({ name: "cv_wallet" })}>Your Gold</a>{" "}
          <button type="button" onClick={() => { setFinished(null); match.set(null); }}>New match</button>
        </p>
      </MatchBoard>
    </Screen>
  );
}
