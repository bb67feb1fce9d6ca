import { describe, expect, it } from "vitest";

import { assessAttackDeck, assessPlan, beats, canAddToDeck, cannotAddToDeck, type TkCard } from "./terrakardRules";

const card = (n: number, cost = 1): TkCard => ({ id: `c${n}`, name: `Card ${n}`, cost, category: "History", rarity: "Common" });

describe("TerraKard attack decks", () => {
  it("is legal with eight different cards within the budget", () => {
    const deck = [1, 2, 3, 4, 5, 6, 7, 8].map((n) => card(n));
    expect(assessAttackDeck(deck, 12)).toEqual({ cost: 8, budget: 12, problems: [], legal: true });
  });

  it("says how many are missing, the cost over the budget, and a card twice", () => {
    const deck = [card(1, 5), card(2, 5), { ...card(3, 5), name: "Card 1" }];
    const a = assessAttackDeck(deck, 12);
    expect(a.legal).toBe(false);
    expect(a.problems).toEqual(["3 of 8 cards: add 5.", "Cost 15 is over your budget of 12.", "Card 1 is in twice: each card once."]);
  });

  it("refuses a ninth card and a card already in", () => {
    const deck = [1, 2, 3].map((n) => card(n));
    expect(canAddToDeck(deck, card(4))).toBe(true);
    expect(canAddToDeck(deck, { ...card(9), name: "Card 2" })).toBe(false);
    expect(canAddToDeck([1, 2, 3, 4, 5, 6, 7, 8].map((n) => card(n)), card(9))).toBe(false);
  });

  it("says in words why a card cannot go in", () => {
    expect(cannotAddToDeck([card(1), card(2)], { ...card(9), name: "Card 2" })).toBe("Card 2 is in the deck already: each card once.");
    expect(cannotAddToDeck([1, 2, 3, 4, 5, 6, 7, 8].map((n) => card(n)), card(9))).toBe("The deck has its 8 cards: remove one first.");
    expect(cannotAddToDeck([card(1)], card(2))).toBeNull();
  });
});

describe("TerraKard defense plans", () => {
  it("needs five rounds and a reserve within the defense budget", () => {
    expect(assessPlan([card(1), card(2), card(3), card(4), card(5)], card(6), 9).legal).toBe(true);
    const a = assessPlan([card(1), null, card(3), card(4), card(5)], null, 3);
    expect(a.problems).toEqual(["4 of 5 rounds have a card.", "Choose a reserve card.", "Cost 4 is over your budget of 3."]);
  });

  it("follows the cycle: the last category beats the first", () => {
    expect(beats("Sciences")).toBe("Nature and life");
    expect(beats("Society and sport")).toBe("Sciences");
    expect(beats("Nowhere")).toBeNull();
  });
});
