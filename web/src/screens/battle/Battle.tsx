/**
 * A CPU battle: start one with a legal deck, then play only the actions the server lists
 * as legal, with the version the view shows. The 90 s turn timer counts down from the
 * server's deadline; each action's events are shown in order as they resolve, and the
 * log keeps the whole match.
 */
import { useEffect, useState } from "preact/hooks";

import { api, idempotencyKey, type Schemas, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Countdown, Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { type Action, actionLabel, type BattleEvent, type Creature, describeEvent, type Side } from "./describe";

type View = Schemas["BattleView"];

async function activeBattle(): Promise<View | null> {
  const result = await api.GET("/quest/battles/active");
  if (result.response.status === 404) return null; // no battle under way
  return unwrap(Promise.resolve(result));
}

function CreatureCard({ creature, title }: { creature: Creature | null | undefined; title: string }) {
  if (!creature) return <p>{title}: none out yet.</p>;
  return (
    <div class="creature">
      <h3>{title}: {creature.name} ({creature.affinity})</h3>
      <label>
        HP {creature.hp} of {creature.maxHp}
        <meter min={0} max={creature.maxHp} low={creature.maxHp * 0.3} high={creature.maxHp * 0.6} optimum={creature.maxHp} value={creature.hp} />
      </label>
      <p>Power {creature.power} of {creature.maxPower}{creature.defeated ? " · defeated" : ""}</p>
    </div>
  );
}

function Start({ onStarted }: { onStarted: (view: View) => void }) {
  const decks = useResource(() => unwrap(api.GET("/quest/decks")));
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
  const [log, setLog] = useState<string[]>([]);
  const [latest, setLatest] = useState<string[]>([]);
  const [finished, setFinished] = useState<View | null>(null);
  const action = useAction();
  const view = battle.data ?? finished;

  // The whole log from the server's history whenever the match changes under us.
  const loadHistory = async (matchId: string) => {
    const history = await unwrap(api.GET("/quest/battles/{match_id}/history", { params: { path: { match_id: matchId } } }));
    setLog((history.entries ?? []).flatMap((entry) => (entry.events ?? []).map((e) => describeEvent(e as BattleEvent))));
  };
  useEffect(() => {
    if (battle.data?.id) void loadHistory(battle.data.id);
  }, [battle.data?.id]);
  useLive(() => {
    if (battle.data?.status === "active") void battle.reload();
  }, ["MatchFinished", "battle", "match"]);

  const act = (chosen: Action) =>
    action.run(async () => {
      if (!view?.id) return;
      if (chosen.kind === "forfeit" && !confirm("Forfeit this battle? It counts as a loss.")) return;
      const result =
        chosen.kind === "forfeit"
          ? await unwrap(api.POST("/quest/battles/{match_id}/forfeit", { params: { path: { match_id: view.id } }, body: { expectedVersion: view.version ?? 0, idempotencyKey: idempotencyKey() } }))
          : await unwrap(
              api.POST("/quest/battles/{match_id}/actions", {
                params: { path: { match_id: view.id } },
                body: { expectedVersion: view.version ?? 0, action: { kind: chosen.kind, index: chosen.index ?? null }, idempotencyKey: idempotencyKey() },
              }),
            );
      const lines = (result.events ?? []).map((e) => describeEvent(e as BattleEvent));
      setLatest(lines);
      setLog((old) => [...old, ...lines]);
      if (result.status === "finished") setFinished(result);
      battle.set(result.status === "finished" ? null : result);
    });

  if (battle.loading) return <Screen title="Battle"><Loading what="your battle" /></Screen>;
  if (!view) {
    return (
      <Screen title="Battle the computer">
        <ProblemBox problem={battle.problem} />
        <Start onStarted={(v) => { setLog([]); setFinished(null); battle.set(v); }} />
      </Screen>
    );
  }
  const you = (view.you ?? {}) as unknown as Side;
  const opponent = (view.opponent ?? {}) as unknown as Side;
  const yourActive = typeof you.active === "number" ? you.creatures?.[you.active] : null;
  const theirActive = typeof opponent.active === "object" ? opponent.active : null;
  const actions = ((view.legalActions ?? []) as unknown as Action[]).filter((a) => a.kind !== "timeout");
  const over = view.status === "finished";
  return (
    <Screen title="Battle">
      <p>
        {over
          ? `Finished: ${view.outcome === "victory" ? "you won" : view.outcome === "forfeit" ? "you forfeited" : "you lost"}.`
          : view.yourTurn
            ? `Your turn (turn ${view.turnNumber}).`
            : view.phase === "initial_selection"
              ? "Choose the Creature you send out first."
              : "Waiting for the computer."}
      </p>
      {!over && view.yourTurn && <Countdown deadline={view.deadline} label="Turn time left" onExpired={() => void battle.reload()} />}
      <div class="arena">
        <CreatureCard creature={yourActive} title="Yours" />
        <CreatureCard creature={theirActive} title="The computer's" />
      </div>
      <p class="note">
        The computer has {opponent.creaturesLeft ?? "?"} Creatures left and {opponent.powerCardsInHand ?? "?"} Power cards in hand.
      </p>
      <div aria-live="polite" class="latest">
        {latest.length > 0 && (
          <>
            <h2>What just happened</h2>
            <ol>{latest.map((line, n) => <li key={n}>{line}</li>)}</ol>
          </>
        )}
      </div>
      {!over && (
        <section aria-labelledby="actions-title">
          <h2 id="actions-title">Your actions</h2>
          {actions.length === 0 && <p>No action for you now.</p>}
          <ul class="actions-list">
            {actions.map((a) => (
              <li key={`${a.kind}-${a.index ?? ""}`}>
                <button type="button" class={a.kind === "forfeit" ? "danger" : ""} disabled={action.busy} onClick={() => void act(a)}>
                  {actionLabel(a, you)}
                </button>
              </li>
            ))}
          </ul>
          <ProblemBox problem={action.problem} title="Not played:" />
          {action.problem?.code === "stale_version" && <button type="button" onClick={() => void battle.reload()}>Show the current state</button>}
        </section>
      )}
      {over && (
        <p>
          <button type="button" onClick={() => { setFinished(null); setLog([]); setLatest([]); battle.set(null); }}>
            New battle
          </button>
        </p>
      )}
      <details>
        <summary>Action log ({log.length})</summary>
        <ol class="log">{log.map((line, n) => <li key={n}>{line}</li>)}</ol>
      </details>
    </Screen>
  );
}
