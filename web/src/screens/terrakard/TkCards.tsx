/** TerraKard cards as a table and as one line, with their cost, category and stats. */
import type { TkCard } from "../../lib/terrakardRules";

export function cardLine(c: TkCard): string {
  return `${c.name} · ${c.category} · ${c.rarity} · cost ${c.cost} · ATK ${c.atk} DEF ${c.def}`;
}

export function TkCardTable({ cards, caption }: { cards: TkCard[]; caption: string }) {
  return (
    <table class="cards">
      <caption class="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Card</th>
          <th scope="col">Category</th>
          <th scope="col">Rarity</th>
          <th scope="col">Cost</th>
          <th scope="col">ATK</th>
          <th scope="col">DEF</th>
        </tr>
      </thead>
      <tbody>
        {cards.map((c) => (
          <tr key={c.id}>
            <th scope="row">{c.name}</th>
            <td>{c.category}</td>
            <td>{c.rarity}</td>
            <td>{c.cost}</td>
            <td>{c.atk}</td>
            <td>{c.def}</td>
          </tr>
        ))}
      </tbody>
    </table>
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
      <meter id={id} min={0} max={budget + 6} low={budget - 1} high={budget} optimum={0} value={cost}>
        {cost} of {budget}
      </meter>
      <p>{legal ? "Ready to save: every rule holds." : problems.join(" ") || empty}</p>
    </div>
  );
}
