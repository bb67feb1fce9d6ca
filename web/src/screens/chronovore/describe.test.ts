import { describe, expect, it } from "vitest";

import { cardText, describeEvent, resolutionSteps, rewardText } from "./describe";

describe("Chronovore in words", () => {
  it("reads a card's face and rewards", () => {
    expect(cardText({ name: "Bandage Sprite", kind: "monster", cardClass: "medic", rarity: "common", attack: 1, health: 3, rewards: [{ type: "health", amount: 2 }, { type: "armor", amount: 1 }] })).toBe(
      "Monster 1 attack, 3 Health · +2 Health; +1 Armor",
    );
    expect(rewardText({ type: "strength", amount: -2 })).toBe("-2 Strength");
    expect(rewardText({ type: "next_enemy", attack: 2, initiative: true })).toBe("The next enemy card: +2 attack, Initiative");
  });

  it("cuts a resolution pair by pair and keeps the heroes the server reported", () => {
    const hero = { health: 27, armor: 0, coins: 0, strength: 1, attack: 1, weapon: null };
    const steps = resolutionSteps([
      { type: "locked", seat: "player", timedOut: false },
      { type: "heroes_entered", round: 1 },
      { type: "pair_revealed", slot: 0, cards: { player: null, cpu: null } },
      { type: "pair_revealed", slot: 1, cards: { player: { uid: 3, card: { name: "A" } }, cpu: null } },
      { type: "monster_fought", seat: "player", slot: 1, attack: 1, health: 3, initiative: false, defeated: true, hero },
      { type: "health", seat: "player", amount: 2 },
      { type: "round_started", round: 2, deadline: "2026-01-01T00:02:00Z" },
      { type: "card_drawn", seat: "player", uid: 9, card: { name: "B" } },
    ]);
    expect(steps.round).toBe(1);
    expect(steps.pairs.map((p) => p.slot)).toEqual([0, 1]);
    expect(steps.pairs[0]!.lines).toEqual([]);
    expect(steps.pairs[1]!.heroes.player).toEqual(hero);
    expect(steps.pairs[1]!.lines).toEqual(["You fought a monster (1 attack, 3 Health): defeated it.", "You: +2 Health."]);
    expect(steps.after).toEqual(["Round 2 of 5 begins: 2 minutes to lock in.", "You drew B."]);
  });

  it("says who did what from your seat", () => {
    expect(describeEvent({ type: "strike", seat: "cpu", damage: 3 })).toBe("The computer struck the enemy hero for 3.");
    expect(describeEvent({ type: "match_finished", results: { player: "win", cpu: "loss" } })).toBe("The match is over: you won.");
  });
});
