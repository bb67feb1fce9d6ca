import { describe, expect, it } from "vitest";

import { madeText, priceOf } from "./Crafting";

describe("shredding and crafting in words", () => {
  it("says what a shred paid, and why when the card was weakened", () => {
    const shred = { action: "shred", name: "Bandage Sprite", finish: "plain", fragments: 1, weakened: false, entry: { balanceAfter: 17 } };
    expect(madeText(shred)).toBe("You shredded a Plain Bandage Sprite: +1 Card Fragments. Balance: 17.");
    expect(madeText({ ...shred, fragments: 5, weakened: true })).toBe(
      "You shredded a Plain Bandage Sprite: +5 Card Fragments (the card was weakened lately: its full crafting cost). Balance: 17.",
    );
    expect(madeText({ action: "craft", name: "Dreadnought", finish: "golden", fragments: 1280, entry: { balanceAfter: 0 } })).toBe(
      "You crafted a Golden Dreadnought for 1280 Card Fragments. Balance: 0.",
    );
  });

  it("finds a rarity and finish's price", () => {
    const prices = { prices: [{ rarity: "rare", finish: "plain", shred: 16, shredWeakened: 80, craft: 80, copyLimit: 2 }] };
    expect(priceOf(prices, "rare", "plain")?.craft).toBe(80);
    expect(priceOf(prices, "rare", "golden")).toBeUndefined();
  });
});
