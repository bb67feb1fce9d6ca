/**
 * A CPU battle: start one with a legal deck, then play it on the board every Quest battle
 * shares (BattleBoard: only the actions the server lists as legal, the 90 s turn timer
 * from the server's deadline, each action's events as they resolve, the whole log).
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { BattleBoard, type BattleView as View } from "./BattleBoard";

/**
 * Your battle under way, or null. One CPU battle at a time, so one under way is your
 * newest: the list's first says whether there is one, and a player with none asks for
 * nothing that is not there (a 404 is an error in the browser's console).
 */
async function activeBattle(): Promise<View | null> {
  const [newest] = await listed(api.GET("/quest/battles", { params: { query: { limit: 1 } } }));
  if (newest?.status !== "active" || !newest.id) return null;
  return unwrap(api.GET("/quest/battles/{match_id}", { params: { path: { match_id: newest.id } } }));
}

function Start({ onStarted }: { onStarted: (view: View) => void }) {
  const decks = useResource(() => listed(api.GET("/quest/decks")));
  const [deckId, setDeckId] = useState("");
  const action = useAction();
  const legal = (decks.data ?? []).filter((d) => d.legal);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);
  return (
    <form onSubmit={(e) => { e.preventDefault(); void action.run(async () => onStarted(await unwrap(api.POST("/quest/battles", { body: { deckId } })))); }}>
      {decks.loading && <Loading what="your decks" />}
      {!decks.loading && legal.length === 0 && (
        <p>You need a legal deck first. <a href={href({ name: "deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <>
          <label for="battle-deck">Deck</label>
          <select id="battle-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name} (cost {d.cost})</option>)}
          </select>
          <button type="submit" disabled={!deckId || action.busy}>Battle the computer</button>
        </>
      )}
      <ProblemBox problem={action.problem ?? decks.problem} title="The battle did not start:" />
    </form>
  );
}

export function Battle() {
  const battle = useResource(activeBattle);
  const [finished, setFinished] = useState<View | null>(null);
  const view = battle.data ?? finished;
  useLive(() => {
    if (battle.data?.status === "active") void battle.reload();
  }, ["MatchFinished", "battle", "match"]);

  if (battle.loading) return <Screen title="Battle"><Loading what="your battle" /></Screen>;
  if (!view) {
    return (
      <Screen title="Battle the computer">
        <ProblemBox problem={battle.problem} />
        <Start onStarted={(v) => { setFinished(null); battle.set(v); }} />
        <p><a href={href({ name: "q_versus" })}>Play another player instead</a></p>
      </Screen>
    );
  }
  const onView = (result: View) => {
    // The active battle's route answers 404 once it is over: keep the last view shown.
    if (result.status === "finished") setFinished(result);
    battle.set(result.status === "finished" ? null : result);
  };
  return (
    <Screen title="Battle">
      <BattleBoard key={view.id} view={view} onView={onView} reload={() => void battle.reload()}>
        {view.status === "finished" && (
          <p>
            <button type="button" onClick={() => { setFinished(null); battle.set(null); }}>
              New battle
            </button>
          </p>
        )}
      </BattleBoard>
    </Screen>
  );
}
