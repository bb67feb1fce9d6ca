/**
 * Chronovore's deck rules as the editor shows them while you edit (rules/chronovore.txt
 * "Decks"; games/chronovore/decks.py): one class plus Neutral, exactly 30 cards, copies of
 * one card by rarity (Common 4, Uncommon 3, Rare 2, Epic 1; every finish together), one
 * Mythic card in the whole deck. A list that breaks them is saved as a work in progress;
 * the server's `legal` and `problems` on save are what count.
 */

export const DECK_SIZE = 30;
export const COPY_LIMIT: Record<string, number> = { common: 4, uncommon: 3, rare: 2, epic: 1, mythic: 1 };
export const MAX_MYTHIC = 1;

export interface Entry {
  name: string;
  cardClass: string;
  rarity: string;
}

export interface DeckAssessment {
  size: number;
  /** The one non-Neutral class, "neutral" for Neutral cards only, null when mixed. */
  deckClass: string | null;
  problems: string[];
  legal: boolean;
}

const key = (name: string) => name.toLocaleLowerCase();

export function copiesOf(entries: Entry[], name: string): number {
  return entries.filter((e) => key(e.name) === key(name)).length;
}

export function assessDeck(entries: Entry[]): DeckAssessment {
  const problems: string[] = [];
  const size = entries.length;
  if (size !== DECK_SIZE) problems.push(`A legal deck has exactly ${DECK_SIZE} cards, not ${size}: ${size < DECK_SIZE ? "add" : "remove"} ${Math.abs(DECK_SIZE - size)}.`);
  const classes = [...new Set(entries.map((e) => e.cardClass).filter((c) => c !== "neutral"))].sort();
  if (classes.length > 1) problems.push(`A deck belongs to one class plus Neutral; this list has ${classes.join(", ")}.`);
  const seen = new Map<string, Entry>();
  for (const e of entries) if (!seen.has(key(e.name))) seen.set(key(e.name), e);
  for (const e of seen.values()) {
    const count = copiesOf(entries, e.name);
    const limit = COPY_LIMIT[e.rarity] ?? 0;
    if (count > limit) problems.push(`${e.name} is ${e.rarity}: at most ${limit} per deck, not ${count}.`);
  }
  const mythic = entries.filter((e) => e.rarity === "mythic").length;
  if (mythic > MAX_MYTHIC) problems.push(`A deck holds ${MAX_MYTHIC} Mythic card at most, not ${mythic}.`);
  const deckClass = classes.length > 1 ? null : (classes[0] ?? (size ? "neutral" : null));
  return { size, deckClass, problems, legal: problems.length === 0 };
}

/** Why this card cannot go in now (its copy limit, the one Mythic, another class), or null. */
export function cannotAdd(entries: Entry[], card: Entry, chosenClass: string): string | null {
  if (card.cardClass !== "neutral" && card.cardClass !== chosenClass) return `not a ${chosenClass} or Neutral card`;
  const limit = COPY_LIMIT[card.rarity] ?? 0;
  if (copiesOf(entries, card.name) >= limit) return `copy limit reached (${limit})`;
  if (card.rarity === "mythic" && entries.some((e) => e.rarity === "mythic")) return "the deck already has its Mythic card";
  return null;
}
