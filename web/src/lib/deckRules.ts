/**
 * The Quest deck rules as the builder shows them while you pick (rulebook "Saved decks";
 * docs/quest-collection.md): five distinct owned copies, three Creatures and two Power
 * cards (the 3 + 2 rule), rarity cost at most 10. The server checks them again on save and
 * its refusal is what counts; this only lets the meter and the counts move as you build.
 */

export const DECK_SIZE = 5;
export const DECK_CREATURES = 3;
export const DECK_POWER_CARDS = 2;
export const DECK_COST_LIMIT = 10;
export const RARITY_COST: Record<string, number> = { Common: 1, Rare: 2, Epic: 3, Legendary: 4 };

export interface DeckCard {
  id: string;
  kind: string;
  rarity: string;
}

export interface DeckAssessment {
  creatures: number;
  powerCards: number;
  cost: number;
  legal: boolean;
  /** One sentence per broken rule, worded for the builder. */
  problems: string[];
}

export function cardCost(rarity: string): number {
  return RARITY_COST[rarity] ?? 0;
}

export function assessDeck(cards: DeckCard[]): DeckAssessment {
  const creatures = cards.filter((c) => c.kind === "creature").length;
  const powerCards = cards.filter((c) => c.kind === "power_card").length;
  const cost = cards.reduce((sum, c) => sum + cardCost(c.rarity), 0);
  const problems: string[] = [];
  if (creatures !== DECK_CREATURES)
    problems.push(`${creatures} of ${DECK_CREATURES} Creatures: ${creatures < DECK_CREATURES ? "add" : "remove"} ${Math.abs(DECK_CREATURES - creatures)}.`);
  if (powerCards !== DECK_POWER_CARDS)
    problems.push(`${powerCards} of ${DECK_POWER_CARDS} Power cards: ${powerCards < DECK_POWER_CARDS ? "add" : "remove"} ${Math.abs(DECK_POWER_CARDS - powerCards)}.`);
  if (cost > DECK_COST_LIMIT) problems.push(`Cost ${cost} is over the limit of ${DECK_COST_LIMIT}.`);
  if (new Set(cards.map((c) => c.id)).size !== cards.length) problems.push("A copy is in the deck twice.");
  return { creatures, powerCards, cost, legal: problems.length === 0 && cards.length === DECK_SIZE, problems };
}

/** Whether adding this card would break a count the deck can no longer fix by adding. */
export function canAdd(cards: DeckCard[], card: DeckCard): boolean {
  return cannotAdd(cards, card) === null;
}

/** Why this card cannot go in now, in words (the Add button says it), or null. */
export function cannotAdd(cards: DeckCard[], card: DeckCard): string | null {
  if (cards.some((c) => c.id === card.id)) return "This copy is in the deck already.";
  if (cards.length >= DECK_SIZE) return `The deck has its ${DECK_SIZE} cards: remove one first.`;
  const { creatures, powerCards } = assessDeck(cards);
  if (card.kind === "creature") return creatures < DECK_CREATURES ? null : `The deck has its ${DECK_CREATURES} Creatures.`;
  if (card.kind === "power_card") return powerCards < DECK_POWER_CARDS ? null : `The deck has its ${DECK_POWER_CARDS} Power cards.`;
  return "A deck holds Creatures and Power cards only.";
}
