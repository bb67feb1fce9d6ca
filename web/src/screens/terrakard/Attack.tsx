/**
 * A live attack: the reconnaissance (30 s), then five rounds of 20 s counted from the
 * server's deadline, the 15 s knowledge question with its stake shown first, the damage
 * both ways, and the stars. Only the legal actions are offered, at the version the view
 * shows; time running out is the server's to play (a read after the deadline shows it).
 */
import { useEffect, useState } from "preact/hooks";

import { api, idempotencyKey, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Countdown, Loading, ProblemBox, Screen } from "../../ui/components";
import { terrakardFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import {
  actionText,
  type DeckCard,
  describeEvent,
  outcomeText,
  type Question,
  type Reconnaissance,
  type RoundView,
  reasonText,
  signedPercent,
  starsText,
  type TkAction,
  type TkEvent,
  terrainEffects,
} from "./describe";
import { Replay, type ReplayEntry } from "./Replay";

const START_HP = 150;
// Each step's length (rules/terrakard.txt: a round 20 s, the question 15 s; the
// reconnaissance 30 s is ours, docs/terrakard.md): a countdown never shows more.
const RECONNAISSANCE_SECONDS = 30;
const ROUND_SECONDS = 20;
const QUESTION_SECONDS = 15;

function HitPoints({ label, hp }: { label: string; hp: number }) {
  return (
    <label>
      {label}: {hp} of {START_HP} hit points
      <meter min={0} max={START_HP} low={START_HP / 2} high={START_HP * 0.75} optimum={START_HP} value={hp} />
    </label>
  );
}

function ReconnaissanceView({ recon }: { recon: Reconnaissance }) {
  return (
    <section aria-labelledby="tk-recon">
      <h2 id="tk-recon">Reconnaissance</h2>
      <dl>
        <dt>Opponent</dt><dd>{recon.pseudonym}</dd>
        <dt>Level</dt><dd>{recon.level}</dd>
        <dt>Trophies</dt><dd>{recon.trophies}</dd>
        <dt>Terrain</dt><dd>{recon.terrain.name}: {terrainEffects(recon.terrain).join("; ")}</dd>
        <dt>Defense categories</dt>
        <dd>{recon.categories ? `${recon.categories.join(", ")} (in the cycle's order, not the plan's)` : "hidden by the terrain"}</dd>
      </dl>
    </section>
  );
}

function RoundsTable({ rounds, you }: { rounds: RoundView[]; you: string }) {
  if (rounds.length === 0) return null;
  return (
    <table class="stacked">
      <caption>Rounds played</caption>
      <thead>
        <tr><th scope="col">Round</th><th scope="col">{you}</th><th scope="col">Defense</th><th scope="col">Damage</th><th scope="col">Hit points after</th></tr>
      </thead>
      <tbody>
        {rounds.map((r) => (
          <tr key={r.round}>
            <th scope="row" data-label="Round">{r.round}</th>
            <td data-label={you}>{r.attackerCard.name} ({r.attackerCard.category}){r.attackerCard.auto ? ", played by the server" : ""}</td>
            <td data-label="Defense">{r.defenseCard.name} ({r.defenseCard.category}){r.defenseCard.reserve ? ", the reserve" : ""}</td>
            <td data-label="Damage">{r.toDefense} to the defense, {r.toAttacker} to {you === "You" ? "you" : "the attacker"}</td>
            <td data-label="Hit points after">{you === "You" ? "you" : "attacker"} {r.attackerHp}, defense {r.defenseHp}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function QuestionBox({ question, onAct, busy }: { question: Question; onAct: (a: TkAction) => void; busy: boolean }) {
  const stake = question.stake;
  return (
    <section aria-labelledby="tk-question" class="callout">
      <h2 id="tk-question">Knowledge question ({question.difficulty})</h2>
      {stake && (
        <p>
          At stake, from this round to the end: a right answer gives {stake.right} to {stake.changes}
          {stake.wrong !== "0%" ? `; a wrong one ${stake.wrong}` : "; a wrong one changes nothing"}. Skipping changes nothing.
        </p>
      )}
      <fieldset disabled={busy}>
        <legend>{question.prompt}</legend>
        <ul class="actions-list">
          {(question.choices ?? []).map((choice, n) => (
            <li key={n}>
              <button type="button" onClick={() => onAct({ kind: "answer", choice: n })}>Answer: {choice}</button>
            </li>
          ))}
          <li><button type="button" onClick={() => onAct({ kind: "skip" })}>Skip the question</button></li>
        </ul>
      </fieldset>
    </section>
  );
}

export function Attack({ id }: { id: string }) {
  const attack = useResource(() => unwrap(api.GET("/terrakard/attacks/{attack_id}", { params: { path: { attack_id: id } } })), [id]);
  const [latest, setLatest] = useState<string[]>([]);
  const [history, setHistory] = useState<ReplayEntry[] | null>(null);
  const action = useAction();
  const view = attack.data;
  useLive(() => {
    if (view?.status === "active") void attack.reload();
  }, ["match"]);
  useEffect(() => setHistory(null), [id]);

  const act = (chosen: TkAction) =>
    action.run(async () => {
      if (!view) return;
      if (chosen.kind === "give_up" && !confirm("Give up? It counts as a defeat.")) return;
      const result = await unwrap(
        api.POST("/terrakard/attacks/{attack_id}/actions", {
          params: { path: { attack_id: id } },
          body: { expectedVersion: view.version ?? 0, action: chosen, idempotencyKey: idempotencyKey() },
        }),
      );
      setLatest(((result.events ?? []) as TkEvent[]).map((e) => describeEvent(e)));
      attack.set(result);
    });
  const watchAgain = () =>
    action.run(async () => {
      const found = await unwrap(api.GET("/terrakard/attacks/{attack_id}/history", { params: { path: { attack_id: id } } }));
      setHistory((found.entries ?? []) as unknown as ReplayEntry[]);
    });

  if (attack.loading) return <Screen title="Attack"><Loading what="the attack" /></Screen>;
  if (!view) return <Screen title="Attack"><ProblemBox problem={attack.problem} /></Screen>;

  const recon = view.reconnaissance as unknown as Reconnaissance;
  const deck = (view.deck ?? []) as unknown as DeckCard[];
  const rounds = (view.rounds ?? []) as unknown as RoundView[];
  const legal = (view.legalActions ?? []) as unknown as TkAction[];
  const question = view.question as unknown as Question | null;
  const revealed = view.revealedNow as unknown as { round: number; reserve: boolean; card: { name: string; category: string; rarity: string; atk: number; def: number } } | null;
  const result = view.result as unknown as { stars: number; winner: string; reason: string } | null;
  const phase = view.phase;
  const over = view.status === "finished";
  const can = (kind: string) => legal.some((a) => a.kind === kind);

  return (
    <Screen title={`Attack on ${view.defender ?? recon?.pseudonym ?? ""}`}>
      <p role="status">
        {over
          ? `${outcomeText(view.outcome)}.`
          : phase === "reconnaissance"
            ? "Reconnaissance: study the defense, then begin."
            : phase === "question"
              ? `Round ${view.round} of 5: the knowledge question.`
              : `Round ${view.round} of 5: choose a card.`}
      </p>
      {view.mode === "tutorial" && <p class="note">The tutorial, against the training plan: no ticket, no question, no trophies, no pack.</p>}
      {!over && (
        <Countdown
          deadline={view.deadline}
          label={phase === "reconnaissance" ? "Reconnaissance time left" : phase === "question" ? "Question time left" : "Round time left"}
          limit={phase === "reconnaissance" ? RECONNAISSANCE_SECONDS : phase === "question" ? QUESTION_SECONDS : ROUND_SECONDS}
          onExpired={() => void attack.reload()}
        />
      )}
      <div class="arena">
        <HitPoints label="You" hp={view.attackerHp ?? START_HP} />
        <HitPoints label="Defense" hp={view.defenseHp ?? START_HP} />
      </div>
      {recon && <ReconnaissanceView recon={recon} />}
      <div aria-live="polite" class="latest">
        {latest.length > 0 && (
          <>
            <h2>What just happened</h2>
            <ol>{latest.map((line, n) => <li key={n}>{line}</li>)}</ol>
          </>
        )}
      </div>
      {revealed && (
        <div class="callout revealed">
          <p>
            Revealed in round {revealed.round}: {revealed.card.name} ({revealed.card.category}, {revealed.card.rarity}, ATK {revealed.card.atk} DEF {revealed.card.def}){revealed.reserve ? ", the reserve" : ""}.
          </p>
          <GameCard face={{ ...terrakardFace(revealed.card), note: revealed.reserve ? "The reserve" : null }} label={`The defense's card: ${revealed.card.name}`} compact />
        </div>
      )}
      {!over && phase === "question" && question && <QuestionBox question={question} onAct={(a) => void act(a)} busy={action.busy} />}
      {!over && can("begin") && (
        <p><button type="button" disabled={action.busy} onClick={() => void act({ kind: "begin" })}>Begin the attack</button></p>
      )}
      {!over && phase === "choose" && (
        <section aria-labelledby="tk-your-deck">
          <h2 id="tk-your-deck">Your deck</h2>
          <CardGrid labelledBy="tk-your-deck">
            {deck.map((c) => {
              const play = legal.find((a) => a.kind === "play" && a.card === c.index);
              return (
                <li key={c.index}>
                  <GameCard face={{ ...terrakardFace(c), note: c.used ? "Played" : null }}>
                    {c.used ? (
                      <p class="note">Played in an earlier round.</p>
                    ) : (
                      <button type="button" disabled={!play || action.busy} onClick={() => play && void act(play)}>
                        {actionText({ kind: "play", card: c.index }, deck)}
                      </button>
                    )}
                  </GameCard>
                </li>
              );
            })}
          </CardGrid>
        </section>
      )}
      <ProblemBox problem={action.problem ?? attack.problem} title="Not played:" />
      {action.problem?.code === "stale_version" && <button type="button" onClick={() => void attack.reload()}>Show the current state</button>}
      {question && question.answered && <p>Knowledge question of round {question.round}: {question.answered.replace("_", " ")}{question.effect ? `, effect ${signedPercent(question.effect)}` : ""}.</p>}
      <RoundsTable rounds={rounds} you="You" />
      {over && result && (
        <section aria-labelledby="tk-result">
          <h2 id="tk-result">Result: {starsText(result.stars)}</h2>
          <p>{outcomeText(view.outcome)}: {reasonText(result.reason)}.</p>
          {!history && <button type="button" disabled={action.busy} onClick={() => void watchAgain()}>Watch the attack again</button>}
          {history && <Replay entries={history} you="attacker" />}
          <p><a href={href({ name: "tk_arena" })}>Back to the arena</a> · <a href={href({ name: "tk_packs" })}>Your packs</a></p>
        </section>
      )}
      {!over && can("give_up") && (
        <p><button type="button" class="danger" disabled={action.busy} onClick={() => void act({ kind: "give_up" })}>Give up</button></p>
      )}
    </Screen>
  );
}
