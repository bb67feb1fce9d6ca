/** The 3 + 2 rule and the cost meter, in words and numbers as well as a bar. */
import {
  assessDeck,
  DECK_COST_LIMIT,
  DECK_CREATURES,
  DECK_POWER_CARDS,
  type DeckCard,
} from "../../lib/deckRules";

export function DeckMeter({ cards }: { cards: DeckCard[] }) {
  const a = assessDeck(cards);
  const mark = (ok: boolean) => (ok ? "✓ " : "✗ ");
  return (
    <div class="deck-meter" aria-live="polite">
      <ul class="rules" aria-label="Deck rules">
        <li class={a.creatures === DECK_CREATURES ? "ok" : "bad"}>
          {mark(a.creatures === DECK_CREATURES)}Creatures: {a.creatures} of {DECK_CREATURES}
        </li>
        <li class={a.powerCards === DECK_POWER_CARDS ? "ok" : "bad"}>
          {mark(a.powerCards === DECK_POWER_CARDS)}Power cards: {a.powerCards} of {DECK_POWER_CARDS}
        </li>
        <li class={a.cost <= DECK_COST_LIMIT ? "ok" : "bad"}>
          <label for="deck-cost">
            {mark(a.cost <= DECK_COST_LIMIT)}Cost: {a.cost} of {DECK_COST_LIMIT}
            {a.cost > DECK_COST_LIMIT ? " (over the limit)" : ""}
          </label>
          {/* On its real scale: full at the limit (7 of 10 is 70 %); beyond it, the words say so. */}
          <meter id="deck-cost" min={0} max={DECK_COST_LIMIT} value={a.cost}>
            {a.cost} of {DECK_COST_LIMIT}
          </meter>
        </li>
      </ul>
      <p>{a.legal ? "This deck is legal." : a.problems.join(" ") || "Pick five cards."}</p>
    </div>
  );
}
