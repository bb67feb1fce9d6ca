/**
 * TerraKard's deck and plan rules as the builders show them while you pick
 * (rules/terrakard.txt "Attack deck and defense plan"; docs/terrakard.md "Decks, plans and
 * budgets"): an attack deck is 8 cards within the level's attack budget; a plan is 5
 * round cards and a different reserve within the defense budget; a card (by name) once.
 * The server assesses again on save and its answer is what counts.
 */

export const DECK_CARDS = 8;
export const PLAN_ROUNDS = 5;

/** The six categories in the cycle's order: each beats the next, the last the first. */
export const CATEGORIES = ["Sciences", "Nature and life", "Geography", "History", "Arts and culture", "Society and sport"];

export const POSTURES: { value: "cautious" | "balanced" | "offensive"; label: string; note: string }[] = [
  { value: "cautious", label: "Cautious", note: "ATK −10%, DEF +10%" },
  { value: "balanced", label: "Balanced", note: "no change" },
  { value: "offensive", label: "Offensive", note: "ATK +10%, DEF −10%" },
];

export const TRIGGERS: { value: "category" | "epic_or_rarer" | "low_hp"; label: string }[] = [
  { value: "category", label: "The attacker plays a card of a category I choose" },
  { value: "epic_or_rarer", label: "The attacker plays a card of rarity Epic or rarer" },
  { value: "low_hp", label: "The defense is below 50% of its hit points at the start of a round" },
];

export interface TkCard {
  id?: string;
  name?: string;
  category?: string;
  rarity?: string;
  cost?: number;
  atk?: number;
  def?: number;
}

export interface Assessment {
  cost: number;
  budget: number;
  /** One sentence per rule the cards break now. */
  problems: string[];
  legal: boolean;
}

function repeatedNames(cards: TkCard[]): string[] {
  const seen = new Set<string>();
  const twice = new Set<string>();
  for (const c of cards) {
    const name = c.name ?? "";
    if (seen.has(name)) twice.add(name);
    seen.add(name);
  }
  return [...twice];
}

function costOf(cards: TkCard[]): number {
  return cards.reduce((sum, c) => sum + (c.cost ?? 0), 0);
}

function common(cards: TkCard[], budget: number, problems: string[]): Assessment {
  const cost = costOf(cards);
  if (cost > budget) problems.push(`Cost ${cost} is over your budget of ${budget}.`);
  for (const name of repeatedNames(cards)) problems.push(`${name} is in twice: each card once.`);
  return { cost, budget, problems, legal: problems.length === 0 };
}

export function assessAttackDeck(cards: TkCard[], budget: number): Assessment {
  const problems: string[] = [];
  if (cards.length !== DECK_CARDS)
    problems.push(`${cards.length} of ${DECK_CARDS} cards: ${cards.length < DECK_CARDS ? "add" : "remove"} ${Math.abs(DECK_CARDS - cards.length)}.`);
  return common(cards, budget, problems);
}

export function assessPlan(rounds: (TkCard | null)[], reserve: TkCard | null, budget: number): Assessment {
  const problems: string[] = [];
  const placed = rounds.filter((c): c is TkCard => !!c);
  if (placed.length !== PLAN_ROUNDS) problems.push(`${placed.length} of ${PLAN_ROUNDS} rounds have a card.`);
  if (!reserve) problems.push("Choose a reserve card.");
  return common(reserve ? [...placed, reserve] : placed, budget, problems);
}

/** Whether adding ``card`` keeps the deck fixable: room left, the copy and the name not in yet. */
export function canAddToDeck(cards: TkCard[], card: TkCard): boolean {
  return cannotAddToDeck(cards, card) === null;
}

/** Why ``card`` cannot go in now, in words (the Add button says it), or null. */
export function cannotAddToDeck(cards: TkCard[], card: TkCard): string | null {
  if (cards.some((c) => c.id === card.id || c.name === card.name)) return `${card.name} is in the deck already: each card once.`;
  if (cards.length >= DECK_CARDS) return `The deck has its ${DECK_CARDS} cards: remove one first.`;
  return null;
}

/** Which category ``category`` beats in the cycle (x1.25 against it). */
export function beats(category: string): string | null {
  const i = CATEGORIES.indexOf(category);
  return i < 0 ? null : (CATEGORIES[(i + 1) % CATEGORIES.length] ?? null);
}
