import { describe, expect, it } from "vitest";

import { assessDeck, cannotAdd, type Entry } from "./chronovoreRules";

const card = (name: string, rarity = "common", cardClass = "neutral"): Entry => ({ name, rarity, cardClass });

function deck(n: number): Entry[] {
  return Array.from({ length: n }, (_, i) => card(`Card ${Math.floor(i / 4)}`));
}

describe("Chronovore decks while you edit", () => {
  it("is legal with 30 cards of one class and Neutral within the limits", () => {
    const entries = [...deck(28), card("Medic one", "rare", "medic"), card("Medic one", "rare", "medic")];
    expect(assessDeck(entries)).toEqual({ size: 30, deckClass: "medic", problems: [], legal: true });
  });

  it("lists every problem: the size, mixed classes, a copy limit and the one Mythic", () => {
    const entries = [card("A", "rare", "medic"), card("a", "rare", "medic"), card("A", "rare", "medic"), card("B", "mythic", "priest"), card("C", "mythic")];
    const found = assessDeck(entries);
    expect(found.deckClass).toBeNull();
    expect(found.problems).toEqual([
      "A legal deck has exactly 30 cards, not 5: add 25.",
      "A deck belongs to one class plus Neutral; this list has medic, priest.",
      "A is rare: at most 2 per deck, not 3.",
      "A deck holds 1 Mythic card at most, not 2.",
    ]);
  });

  it("says why a card cannot be added", () => {
    expect(cannotAdd([card("E", "epic")], card("E", "epic"), "medic")).toBe("copy limit reached (1)");
    expect(cannotAdd([card("M", "mythic")], card("N", "mythic"), "medic")).toBe("the deck already has its Mythic card");
    expect(cannotAdd([], card("P", "common", "priest"), "medic")).toBe("not a medic or Neutral card");
    expect(cannotAdd(deck(30), card("New"), "medic")).toBeNull(); // a work in progress may hold more than 30
  });
});
