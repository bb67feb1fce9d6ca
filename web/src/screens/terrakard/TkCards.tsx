/** TerraKard cards as cards and as one line, with their cost, category and stats. */
import type { TkCard } from "../../lib/terrakardRules";
import { terrakardFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";

export function cardLine(c: TkCard): string {
  return `${c.name} · ${c.category} · ${c.rarity} · cost ${c.cost} · ATK ${c.atk} DEF ${c.def}`;
}

export function TkCardGrid({ cards, label }: { cards: TkCard[]; label: string }) {
  return (
    <CardGrid label={label}>
      {cards.map((c) => (
        <li key={c.id}>
          <GameCard face={terrakardFace(c)} />
        </li>
      ))}
    </CardGrid>
  );
}

/** The cost against the budget, in words and a meter (never colour alone). */
export function CostMeter({ id, cost, budget, problems, legal, empty }: { id: string; cost: number; budget: number; problems: string[]; legal: boolean; empty: string }) {
  const over = cost > budget;
  return (
    <div class="deck-meter" aria-live="polite">
      <label for={id}>
        {over ? "✗ " : "✓ "}Cost: {cost} of {budget}
        {over ? " (over the budget)" : ""}
      </label>
      <meter id={id} min={0} max={budget} value={cost}>
        {cost} of {budget}
      </meter>
      <p>{legal ? "Ready to save: every rule holds." : problems.join(" ") || empty}</p>
    </div>
  );
}
