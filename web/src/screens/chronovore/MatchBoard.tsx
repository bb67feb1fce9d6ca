/**
 * A Chronovore match as one seat plays it, against the computer or another player: the
 * heroes, the lock-in row (tap a card in your hand, then an empty slot; tap a slotted card,
 * then another empty slot to move it, or the card again to take it back; or drag a card
 * into one of the 4 slots, or focus it and press 1–4; a slotted card moves with 1–4 and
 * goes back to the hand with Backspace, or its button), Lock in, the 2-minute choosing
 * step counted from the server's deadline (at zero the server locks you in), and once both
 * rows are locked the pairs one by one, the heroes stepping along. The screens around it
 * (Match, Versus) say how a match starts.
 */
import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";

import { api, idempotencyKey, unwrap } from "../../api/client";
import { whenAllowed } from "../../api/pace";
import { ApiError, type Problem } from "../../api/problems";
import type { Answer } from "../../api/types";
import { useLive } from "../../stream/live";
import { Countdown, ProblemBox } from "../../ui/components";
import { chronovoreFace } from "../../ui/faces";
import { CardFace, cardButtonClass } from "../../ui/GameCard";
import { useAction } from "../../ui/resource";
import { cardText, COMPUTER, type CvAction, type CvEvent, describeEvent, type Hero, heroText, type InPlay, type PairStep, resolutionSteps, resultText } from "./describe";
import { Keywords } from "./Keywords";

export type MatchView = Answer<"getChronovoreMatch">;
const SLOTS = 4;
const MAX_HEALTH = 30;
const STEP_MS = 1200;
/** Sends of one move at a newer version when the other side keeps moving (see atCurrentVersion). */
const STALE_RETRIES = 4;

interface You {
  hero: Hero;
  hand: InPlay[];
  slots: (InPlay | null)[];
  locked: boolean;
  deckCount: number;
  discardCount: number;
}
interface Opponent {
  kind?: string;
  name?: string | null;
  hero: Hero;
  handCount: number;
  deckCount: number;
  locked: boolean;
  slots: ("face_down" | null)[];
}
/** The card a tap picked up: in the hand (``slot`` null) or in a slot of the row. */
interface Picked {
  uid: number;
  slot: number | null;
}
interface Resolution {
  round: number | null;
  pairs: PairStep[];
  after: string[];
}

/** Who sits across, in words: the computer, or the other player's pseudonym. */
export interface Sides {
  you: string;
  them: string;
  /** "The computer's", "Keeper-3fa2c1's" */
  theirs: string;
  /** Inside a sentence: "the computer", "Keeper-3fa2c1" */
  themInline: string;
}

export function sidesOf(view: MatchView): Sides {
  const opponent = (view.opponent ?? {}) as Partial<Opponent>;
  const them = view.mode === "pvp" ? opponent.name || "Your opponent" : COMPUTER;
  return {
    you: view.seat ?? "player",
    them,
    theirs: `${them}'s`,
    themInline: them === COMPUTER ? "the computer" : them,
  };
}

function HeroPanel({ label, hero }: { label: string; hero: Hero }) {
  return (
    <div class="creature" role="group" aria-label={label}>
      <h3>{label}</h3>
      <label>
        Health {hero.health} of {MAX_HEALTH}
        <meter min={0} max={MAX_HEALTH} low={10} high={20} optimum={MAX_HEALTH} value={Math.max(0, hero.health)} />
      </label>
      <p>Armor {hero.armor} · Coins {hero.coins} · Strength {hero.strength} · attack {hero.attack}</p>
      <p>{hero.weapon ? `Weapon: ${hero.weapon.attack} attack, ${hero.weapon.durability} durability` : "No weapon"}</p>
    </div>
  );
}

function prefersReducedMotion(): boolean {
  return typeof window.matchMedia === "function" && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
}

/** The pairs one after the other, the heroes stepping from pair to pair. */
function ResolutionView({ resolution, sides }: { resolution: Resolution; sides: Sides }) {
  const [shown, setShown] = useState(() => (prefersReducedMotion() ? resolution.pairs.length : Math.min(1, resolution.pairs.length)));
  useEffect(() => {
    if (shown >= resolution.pairs.length) return;
    const timer = setTimeout(() => setShown(shown + 1), STEP_MS);
    return () => clearTimeout(timer);
  }, [shown, resolution.pairs.length]);
  const done = shown >= resolution.pairs.length;
  const name = (item: InPlay | null | undefined) => (item ? item.card.name : "nothing");
  const other = (record: Record<string, unknown>) => Object.keys(record).find((seat) => seat !== sides.you) ?? "";
  return (
    <section aria-labelledby="cv-resolution" class="callout">
      <h2 id="cv-resolution">Round {resolution.round} resolved</h2>
      <p role="status">{done ? "The heroes have passed every pair." : `The heroes stand above pair ${shown} of ${resolution.pairs.length}.`}</p>
      <ol aria-label="Pairs">
        {resolution.pairs.slice(0, shown).map((pair) => {
          const mine = pair.heroes[sides.you];
          const theirs = pair.heroes[other(pair.heroes)];
          return (
            <li key={pair.slot}>
              <p><strong>Pair {pair.slot + 1}:</strong> you played {name(pair.cards[sides.you])}, {sides.themInline} {name(pair.cards[other(pair.cards)])}.</p>
              {[pair.cards[sides.you], pair.cards[other(pair.cards)]].map((item) => item && <Keywords key={item.uid} keywords={item.card.keywords} of={item.card.name} />)}
              {pair.lines.length === 0 ? <p>Two empty slots: nothing happens.</p> : <ul>{pair.lines.map((line, n) => <li key={n}>{line}</li>)}</ul>}
              {mine && <p class="note">Your hero after the fight: {heroText(mine)}.</p>}
              {theirs && <p class="note">{sides.theirs} hero after the fight: {heroText(theirs)}.</p>}
            </li>
          );
        })}
      </ol>
      {!done && <button type="button" onClick={() => setShown(resolution.pairs.length)}>Show every pair now</button>}
      {done && resolution.after.length > 0 && <ul aria-label="Then">{resolution.after.map((line, n) => <li key={n}>{line}</li>)}</ul>}
    </section>
  );
}

function sameAction(a: CvAction, b: CvAction): boolean {
  return a.kind === b.kind && a.card === b.card && a.slot === b.slot && a.to === b.to;
}

function finishText(reason: string | null | undefined): string {
  if (!reason) return "";
  return ` (${reason === "duel" ? "after the duel" : reason === "left" ? "a player left" : "a hero fell"})`;
}

/**
 * One match, as ``view`` shows it to you. Each answer of an action, or of a reload
 * (pushed: the other side locked in, the clock ran out), comes back through ``onView``;
 * ``children`` follow once the match is over (what to do next).
 */
export function MatchBoard({
  view,
  onView,
  reload,
  loadProblem = null,
  children,
}: {
  view: MatchView;
  onView: (view: MatchView) => void;
  reload: () => Promise<void>;
  loadProblem?: Problem | null;
  children?: ComponentChildren;
}) {
  const [resolution, setResolution] = useState<Resolution | null>(null);
  const [latest, setLatest] = useState<string[]>([]);
  const [hint, setHint] = useState("");
  const [picked, setPicked] = useState<Picked | null>(null);
  const focusNext = useRef<string | null>(null);
  const action = useAction();
  const sides = sidesOf(view);

  useLive(() => {
    if (view.status === "active") void reload();
  }, ["match"]);

  // A round resolved without our lock (the other side's, the clock, another tab): read it from the log.
  useEffect(() => {
    if (!view.id) return;
    const lastResolved = view.status === "finished" ? view.round ?? 0 : (view.round ?? 1) - 1;
    if (lastResolved < 1 || resolution?.round === lastResolved) return;
    void (async () => {
      const history = await unwrap(api.GET("/chronovore/matches/{match_id}/history", { params: { path: { match_id: view.id ?? "" } } })).catch(() => null);
      if (!history) return;
      const events = (history.entries ?? []).flatMap((e) => (e.events ?? []) as CvEvent[]);
      const from = events.map((e) => e.type).lastIndexOf("heroes_entered");
      if (from >= 0) setResolution(resolutionSteps(events.slice(from), sides.you, sides.them));
    })();
  }, [view.id, view.round, view.status]);

  useEffect(() => {
    if (!focusNext.current) return;
    document.querySelector<HTMLElement>(`[data-focus="${focusNext.current}"]`)?.focus();
    focusNext.current = null;
  });

  /**
   * ``call`` at the version on screen. Against a player, the other side's moves (face
   * down) move the match's version too, so a refusal as stale is looked at again: while
   * the round is the same and ``chosen`` is still legal, it is sent once more at the
   * version the server has now (what you saw has not changed); otherwise the refusal stands.
   */
  const atCurrentVersion = async <T,>(chosen: CvAction, call: (version: number) => Promise<T>): Promise<T> => {
    let version = view.version ?? 0;
    for (let attempt = 1; ; attempt++) {
      try {
        const at = version;
        return await whenAllowed(setHint, () => call(at));
      } catch (error) {
        if (!(error instanceof ApiError) || error.code !== "stale_version" || !view.id) throw error;
        // Whatever happens next, the board shows the match as it is now.
        const fresh = await unwrap(api.GET("/chronovore/matches/{match_id}", { params: { path: { match_id: view.id } } }));
        onView(fresh);
        const legalNow = ((fresh.legalActions ?? []) as unknown as CvAction[]).some((l) => sameAction(l, chosen));
        // The other side may move again meanwhile: a few tries, each at the newest version.
        if (fresh.status !== "active" || fresh.round !== view.round || !legalNow || attempt >= STALE_RETRIES) throw error;
        version = fresh.version ?? 0;
      }
    }
  };

  const send = (chosen: CvAction, focusAfter: string | null = null) =>
    action.run(async () => {
      const matchId = view.id;
      if (!matchId) return;
      setHint("");
      if (chosen.kind === "forfeit") {
        if (!confirm(`Leave the match? ${sides.them} wins and you get no Gold.`)) return;
        onView(await atCurrentVersion(chosen, (version) => unwrap(api.POST("/chronovore/matches/{match_id}/leave", { params: { path: { match_id: matchId } }, body: { expectedVersion: version, idempotencyKey: idempotencyKey() } }))));
        return;
      }
      const result = await atCurrentVersion(chosen, (version) =>
        unwrap(
          api.POST("/chronovore/matches/{match_id}/actions", {
            params: { path: { match_id: matchId } },
            body: { expectedVersion: version, action: chosen, idempotencyKey: idempotencyKey() },
          }),
        ),
      );
      const events = (result.events ?? []) as CvEvent[];
      const steps = resolutionSteps(events, sides.you, sides.them);
      if (steps.round !== null) setResolution(steps);
      setLatest(events.filter((e) => e.type !== "heroes_entered").slice(0, steps.round !== null ? 2 : undefined).map((e) => describeEvent(e, sides.you, sides.them)));
      focusNext.current = focusAfter;
      onView(result);
    });

  const you = view.you as unknown as You;
  const opponent = view.opponent as unknown as Opponent;
  const legal = (view.legalActions ?? []) as unknown as CvAction[];
  const over = view.status === "finished";
  const isLegal = (a: CvAction) => legal.some((l) => sameAction(l, a));

  const editable = !over && !you.locked;
  // A pick the row no longer shows where it was (a move sent, another tab, the clock) is none.
  const pickedCard = !picked || !editable ? null : picked.slot === null ? you.hand.find((i) => i.uid === picked.uid) ?? null : you.slots[picked.slot]?.uid === picked.uid ? you.slots[picked.slot]! : null;
  const pick = pickedCard ? picked : null;

  const placeOrMove = (from: { uid: number } | { slot: number }, slot: number) => {
    setPicked(null);
    const chosen: CvAction = "uid" in from ? { kind: "place", card: from.uid, slot } : { kind: "move", slot: from.slot, to: slot };
    if ("slot" in from && from.slot === slot) return;
    if (!isLegal(chosen)) {
      setHint(you.locked ? "You have locked in: the row is fixed." : `Slot ${slot + 1} is taken: move that card or take it back first.`);
      return;
    }
    void send(chosen, `slot-${slot}`);
  };
  const takeBack = (slot: number) => {
    setPicked(null);
    const chosen: CvAction = { kind: "take_back", slot };
    if (isLegal(chosen)) void send(chosen, "hand");
  };
  const slotFromKey = (key: string) => (/^[1-4]$/.test(key) ? Number(key) - 1 : null);
  const dragData = (e: DragEvent, data: object) => {
    e.dataTransfer?.setData("text/plain", JSON.stringify(data));
    if (e.dataTransfer) e.dataTransfer.effectAllowed = "move";
  };
  const dropped = (e: DragEvent): { uid: number } | { slot: number } | null => {
    try {
      return JSON.parse(e.dataTransfer?.getData("text/plain") ?? "");
    } catch {
      return null;
    }
  };
  /** A tap (or a click, Enter, Space) on a card: picks it up; on the picked card again,
   * puts a hand card down or takes a slotted one back to the hand. */
  const tapCard = (item: InPlay, slot: number | null) => {
    if (!editable) return;
    setHint("");
    if (pick?.uid === item.uid) {
      if (slot === null) setPicked(null);
      else takeBack(slot);
      return;
    }
    setPicked({ uid: item.uid, slot });
  };
  const tapSlot = (slot: number) => {
    if (pick) placeOrMove(pick.slot === null ? { uid: pick.uid } : { slot: pick.slot }, slot);
  };
  const nextStep = !editable
    ? null
    : !pickedCard || !pick
      ? "Tap a card in your hand, then a slot to place it there."
      : pick.slot === null
        ? you.slots.some((s) => !s)
          ? `Tap a slot to place ${pickedCard.card.name}, or tap it again to keep it in your hand.`
          : `Every slot is taken: take a card back before placing ${pickedCard.card.name}.`
        : `Tap an empty slot to move ${pickedCard.card.name} there, or tap it again to take it back to your hand.`;

  return (
    <>
      <p role="status">
        {over
          ? `The match is over: ${resultText(view.result)}${finishText(view.finishReason)}.`
          : `Round ${view.round} of ${view.rounds}. ${you.locked ? "You have locked in; waiting for the resolution." : "Place up to 4 cards, then lock in."}`}
      </p>
      {!over && <Countdown deadline={view.deadline} label="Choosing time left" onExpired={() => void reload()} />}
      <div class="arena heroes">
        <HeroPanel label="Your hero" hero={you.hero} />
        <HeroPanel label={`${sides.theirs} hero`} hero={opponent.hero} />
      </div>
      {resolution && resolution.round !== null && <ResolutionView key={`${view.id}-${resolution.round}`} resolution={resolution} sides={sides} />}
      <div aria-live="polite">{latest.length > 0 && !resolution && <ul>{latest.map((l, n) => <li key={n}>{l}</li>)}</ul>}</div>
      {!over && (
        <>
          <p class="note">
            {sides.them}: {opponent.handCount} cards in hand, {opponent.deckCount} in the deck,{" "}
            {opponent.locked ? `locked in (${opponent.slots.filter((s) => s === "face_down").length} cards face down)` : "still choosing"}.
          </p>
          <section aria-labelledby="cv-row">
            <h2 id="cv-row">Your row</h2>
            {nextStep && <p class="next-step" role="status">{nextStep}</p>}
            <p class="note" id="cv-keys">Or drag a card into a slot, or focus it and press 1–4. Backspace returns a slotted card to your hand.</p>
            <ol class="row" aria-label="Your row">
              {Array.from({ length: SLOTS }, (_, n) => {
                const item = you.slots[n] ?? null;
                return (
                  <li
                    key={n}
                    class={item ? "slot filled" : "slot"}
                    onDragOver={(e) => editable && e.preventDefault()}
                    onDrop={(e) => {
                      e.preventDefault();
                      const from = dropped(e);
                      if (from) placeOrMove(from, n);
                    }}
                  >
                    <span class="slot-number">Slot {n + 1}</span>
                    {item ? (
                      <>
                        <button
                          type="button"
                          class={`${cardButtonClass(chronovoreFace(item.card))} ${pick?.uid === item.uid ? "card picked" : "card"}`}
                          data-focus={`slot-${n}`}
                          draggable={editable}
                          aria-pressed={editable ? pick?.uid === item.uid : undefined}
                          aria-describedby="cv-keys"
                          aria-keyshortcuts="1 2 3 4 Backspace"
                          aria-label={`Slot ${n + 1}: ${item.card.name}. ${cardText(item.card)}`}
                          onClick={() => tapCard(item, n)}
                          onDragStart={(e) => dragData(e, { slot: n })}
                          onKeyDown={(e) => {
                            const to = slotFromKey(e.key);
                            if (to !== null && editable) { e.preventDefault(); placeOrMove({ slot: n }, to); }
                            if ((e.key === "Backspace" || e.key === "Delete") && editable) { e.preventDefault(); takeBack(n); }
                          }}
                        >
                          <CardFace face={chronovoreFace(item.card)} />
                          {pick?.uid === item.uid && <span class="picked-mark">Picked up</span>}
                        </button>
                        <Keywords keywords={item.card.keywords} of={item.card.name} />
                        {editable && <button type="button" onClick={() => takeBack(n)} aria-label={`Take ${item.card.name} back to your hand`}>Back to hand</button>}
                      </>
                    ) : pickedCard ? (
                      <button type="button" class="slot-target" onClick={() => tapSlot(n)} aria-label={`${pick?.slot === null ? "Place" : "Move"} ${pickedCard.card.name} in slot ${n + 1}`}>
                        {pick?.slot === null ? "Place" : "Move"} {pickedCard.card.name} here
                      </button>
                    ) : (
                      <span class="empty">Empty</span>
                    )}
                  </li>
                );
              })}
            </ol>
            {hint && <p role="alert">{hint}</p>}
            <h2 id="cv-hand">Your hand ({you.hand.length})</h2>
            <ul
              class="hand card-grid"
              aria-labelledby="cv-hand"
              data-focus="hand"
              tabIndex={-1}
              onDragOver={(e) => editable && e.preventDefault()}
              onDrop={(e) => {
                e.preventDefault();
                const from = dropped(e);
                if (from && "slot" in from) takeBack(from.slot);
              }}
            >
              {you.hand.map((item) => (
                <li key={item.uid}>
                  <button
                    type="button"
                    class={`${cardButtonClass(chronovoreFace(item.card))} ${pick?.uid === item.uid ? "card picked" : "card"}`}
                    draggable={editable}
                    aria-pressed={editable ? pick?.uid === item.uid : undefined}
                    aria-describedby="cv-keys"
                    aria-keyshortcuts="1 2 3 4"
                    aria-label={`${item.card.name}. ${cardText(item.card)}`}
                    onClick={() => tapCard(item, null)}
                    onDragStart={(e) => dragData(e, { uid: item.uid })}
                    onKeyDown={(e) => {
                      const to = slotFromKey(e.key);
                      if (to !== null && editable) { e.preventDefault(); placeOrMove({ uid: item.uid }, to); }
                    }}
                  >
                    <CardFace face={chronovoreFace(item.card)} />
                    {pick?.uid === item.uid && <span class="picked-mark">Picked up</span>}
                  </button>
                  <Keywords keywords={item.card.keywords} of={item.card.name} />
                </li>
              ))}
            </ul>
            <p class="note">Your deck: {you.deckCount} cards; discard: {you.discardCount}.</p>
            <div class="actions">
              <button type="button" disabled={!isLegal({ kind: "lock" }) || action.busy} onClick={() => void send({ kind: "lock" })}>Lock in</button>
              <button type="button" class="danger" disabled={action.busy} onClick={() => void send({ kind: "forfeit" })}>Leave the match</button>
            </div>
          </section>
        </>
      )}
      <ProblemBox problem={action.problem ?? loadProblem} title="Not done:" />
      {action.problem?.code === "stale_version" && <button type="button" onClick={() => { action.clear(); void reload(); }}>Show the current state</button>}
      {over && children}
    </>
  );
}
