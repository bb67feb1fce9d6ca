import { describe, expect, it } from "vitest";

import { bestFinish, finishesText, ownedCards } from "./Decks";

describe("your Chronovore cards", () => {
  it("joins the collection to the library for the class and counts each finish on its own", () => {
    const owned = ownedCards(
      {
        definitions: [
          {
            definition: { id: "d1", name: "Bandage Sprite", kind: "monster", rarity: "common" },
            count: 3,
            copies: [{ id: "c1", finish: "golden" }, { id: "c2", finish: "plain" }, { id: "c3", finish: "plain" }],
          },
        ],
      },
      [{ id: "d1", kind: "monster", name: "Bandage Sprite", rarity: "common", definition: { cardClass: "medic", attack: 1, health: 3, rewards: [] } }],
    );
    expect(owned).toEqual([
      {
        definitionId: "d1", name: "Bandage Sprite", rarity: "common", cardClass: "medic", copies: ["c1", "c2", "c3"], finishes: { golden: 1, plain: 2 }, finishOf: { c1: "golden", c2: "plain", c3: "plain" }, text: "Monster 1 attack, 3 Health",
        card: expect.objectContaining({ name: "Bandage Sprite", kind: "monster", cardClass: "medic", attack: 1, health: 3 }),
      },
    ]);
    expect(finishesText(owned[0]!.finishes)).toBe("2 Plain, 1 Golden");
    expect(bestFinish(owned[0]!.finishes)).toBe("golden"); // the frame of a card you own
  });
});
