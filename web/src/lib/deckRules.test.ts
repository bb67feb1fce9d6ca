import { describe, expect, it } from "vitest";

import { assessDeck, canAdd, cannotAdd, type DeckCard } from "./deckRules";

const creature = (id: string, rarity = "Common"): DeckCard => ({ id, kind: "creature", rarity });
const power = (id: string, rarity = "Common"): DeckCard => ({ id, kind: "power_card", rarity });

describe("the deck rules as the builder shows them", () => {
  it("accepts three Creatures and two Power cards costing exactly 10", () => {
    const deck = [creature("a", "Legendary"), creature("b", "Epic"), creature("c"), power("d"), power("e")];
    expect(assessDeck(deck)).toEqual({ creatures: 3, powerCards: 2, cost: 10, legal: true, problems: [] });
  });

  it("refuses a cost of 11 and says by how much it is over", () => {
    const deck = [creature("a", "Legendary"), creature("b", "Epic"), creature("c", "Rare"), power("d"), power("e")];
    const result = assessDeck(deck);
    expect(result.cost).toBe(11);
    expect(result.legal).toBe(false);
    expect(result.problems).toEqual(["Cost 11 is over the limit of 10."]);
  });

  it("names what the 3 + 2 rule still needs", () => {
    const result = assessDeck([creature("a"), power("b"), power("c")]);
    expect(result.legal).toBe(false);
    expect(result.problems).toEqual(["1 of 3 Creatures: add 2."]);
  });

  it("stops adding a kind once its count is full, and the same copy twice", () => {
    const deck = [creature("a"), creature("b"), creature("c"), power("d")];
    expect(canAdd(deck, creature("x"))).toBe(false);
    expect(canAdd(deck, power("e"))).toBe(true);
    expect(canAdd(deck, power("d"))).toBe(false);
  });

  it("says in words why a card cannot go in", () => {
    const deck = [creature("a"), creature("b"), creature("c"), power("d")];
    expect(cannotAdd(deck, creature("x"))).toBe("The deck has its 3 Creatures.");
    expect(cannotAdd(deck, power("d"))).toBe("This copy is in the deck already.");
    expect(cannotAdd([...deck, power("e")], power("f"))).toBe("The deck has its 5 cards: remove one first.");
    expect(cannotAdd(deck, power("e"))).toBeNull();
  });
});
