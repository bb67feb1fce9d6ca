/**
 * One Quest battle as its side sees it, against the computer or another player: the two
 * active Creatures, whose decision the match waits for, the legal actions (sent with the
 * version the view shows and an idempotency key), what just happened and the whole log.
 *
 * Everything is told from the view's seat (`side`, `opponentName`): the invited player
 * sits the engine's side `cpu`, yet reads "you" for their own moves and the inviter's
 * pseudonym for the other's. Against the computer, the 90 s turn timer counts down;
 * against a player, the 24-hour decision window is shown with its end (DecisionWindow).
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

import { api, idempotencyKey, type Schemas, unwrap } from "../../api/client";
import { moveText } from "../../lib/questWords";
import { Countdown, ProblemBox } from "../../ui/components";
import { questFace } from "../../ui/faces";
import { type Face, GameCard } from "../../ui/GameCard";
import { useAction } from "../../ui/resource";
import { DecisionWindow } from "./DecisionWindow";
import { type Action, actionLabel, type BattleEvent, capital, type Creature, describeEvents, possessive, type Side, seatOf, statusText } from "./describe";

export type BattleView = Schemas["BattleView"];

/** What lasts on a Creature (its statuses), in words. */
export function statusWords(creature: Creature): string {
  const s = creature.statuses;
  if (!s) return "";
  const found: string[] = [];
  if (s.poison) found.push("poisoned");
  if (s.stun) found.push("stunned");
  if (s.dodge > 0) found.push(s.dodge === 1 ? "dodges the next attack" : `dodges the next ${s.dodge} attacks`);
  if (s.reflect) found.push("reflects damage");
  if (s.modifiers?.length) found.push("its damage is changed");
  return capital(found.join(", "));
}

/**
 * The Creature out on one side, as its card with what it has now (HP, Power, statuses);
 * the other side's with its moves (yours are the buttons below).
 */
function CreatureCard({ creature, title, moves = false }: { creature: Creature | null | undefined; title: string; moves?: boolean }) {
  if (!creature) return <p>{title}: none out yet.</p>;
  const face: Face = {
    ...questFace({ name: creature.name, kind: "creature", affinity: creature.affinity }),
    cost: null,
    stats: [
      { label: "HP", value: `${creature.hp}/${creature.maxHp}` },
      { label: "Power", value: `${creature.power}/${creature.maxPower}` },
    ],
    lines: moves ? (creature.moves ?? []).map(moveText) : [],
    note: [creature.defeated ? "Defeated" : "", statusWords(creature)].filter(Boolean).join(" · ") || null,
  };
  return (
    <div class="creature">
      <h3>{title}: {creature.name}</h3>
      <GameCard face={face} compact label={`${title}: ${creature.name}`}>
        <label>
          HP {creature.hp} of {creature.maxHp}
          <meter min={0} max={creature.maxHp} low={creature.maxHp * 0.3} high={creature.maxHp * 0.6} optimum={creature.maxHp} value={creature.hp} />
        </label>
      </GameCard>
    </div>
  );
}

export function BattleBoard({ view, onView, reload, children }: {
  view: BattleView;
  /** The view an action answered with */
  onView: (view: BattleView) => void;
  /** Read the view again (a stale version, a deadline reached) */
  reload: () => void;
  /** What follows the board: a new battle, back to the lobby */
  children?: ComponentChildren;
}) {
  const [log, setLog] = useState<string[]>([]);
  const [latest, setLatest] = useState<string[]>([]);
  const seen = useRef<number | null>(null); // the version whose events the screen has shown
  const action = useAction();
  const seat = seatOf(view);
  const against = view.opponentName ?? null;

  // The log from the server's history whenever the match moves, by us or by them; what
  // moved it since the version last shown is "what just happened".
  useEffect(() => {
    if (!view.id) return;
    let current = true;
    void (async () => {
      const history = await unwrap(api.GET("/quest/battles/{match_id}/history", { params: { path: { match_id: view.id ?? "" } } }));
      if (!current) return;
      const entries = history.entries ?? [];
      const lines = (entry: (typeof entries)[number]) => describeEvents((entry.events ?? []) as BattleEvent[], seat);
      setLog(entries.flatMap(lines));
      const since = seen.current;
      if (since !== null) {
        const fresh = entries.filter((e) => (e.seq ?? 0) > since).flatMap(lines);
        if (fresh.length > 0) setLatest(fresh);
      }
      seen.current = history.version ?? view.version ?? 0;
    })().catch(() => undefined); // the board still plays without its log
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [view.id, view.version]);

  const act = (chosen: Action) =>
    action.run(async () => {
      if (!view.id) return;
      if (chosen.kind === "forfeit" && !confirm("Forfeit this battle? It counts as a loss.")) return;
      const path = { params: { path: { match_id: view.id } } };
      const result =
        chosen.kind === "forfeit"
          ? await unwrap(api.POST("/quest/battles/{match_id}/forfeit", { ...path, body: { expectedVersion: view.version ?? 0, idempotencyKey: idempotencyKey() } }))
          : await unwrap(
              api.POST("/quest/battles/{match_id}/actions", {
                ...path,
                body: { expectedVersion: view.version ?? 0, action: { kind: chosen.kind, index: chosen.index ?? null }, idempotencyKey: idempotencyKey() },
              }),
            );
      onView(result);
    });
  // A stale version: the other player (or another tab) moved meanwhile; show what is.
  useEffect(() => {
    if (action.problem?.code === "stale_version") reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [action.problem]);

  const you = (view.you ?? {}) as unknown as Side;
  const opponent = (view.opponent ?? {}) as unknown as Side;
  const yourActive = typeof you.active === "number" ? you.creatures?.[you.active] : null;
  const theirActive = typeof opponent.active === "object" ? opponent.active : null;
  const actions = ((view.legalActions ?? []) as unknown as Action[]).filter((a) => a.kind !== "timeout");
  const over = view.status === "finished";
  const yours = actions.some((a) => a.kind !== "forfeit");
  return (
    <>
      <p role="status">{statusText(view, seat)}</p>
      {!over && against === null && view.yourTurn && <Countdown deadline={view.deadline} label="Turn time left" onExpired={reload} />}
      {!over && against !== null && <DecisionWindow deadline={view.deadline} who={yours ? null : against} onExpired={reload} />}
      {!over && view.phase === "initial_selection" && opponent.hasChosen && (
        <p>{capital(seat.them)} has chosen their first Creature; it stays hidden until you choose yours.</p>
      )}
      <div class="arena battle-cards">
        <CreatureCard creature={yourActive} title="Yours" />
        <CreatureCard creature={theirActive} title={capital(possessive(seat.them))} moves />
      </div>
      <p class="note">
        {capital(seat.them)} has {opponent.creaturesLeft ?? "?"} Creatures left and {opponent.powerCardsInHand ?? "?"} Power cards in hand.
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
          {action.problem?.code === "stale_version" && <button type="button" onClick={reload}>Show the current state</button>}
        </section>
      )}
      {children}
      <details>
        <summary>Action log ({log.length})</summary>
        <ol class="log">{log.map((line, n) => <li key={n}>{line}</li>)}</ol>
      </details>
    </>
  );
}
