import { describe, expect, it } from "vitest";

import { describeEvent, fractionPercent, starsText, terrainEffects } from "./describe";

describe("TerraKard in words", () => {
  it("reads a terrain's exact factors as the rulebook writes them", () => {
    expect(fractionPercent("6/5")).toBe("+20%");
    expect(fractionPercent("4/5")).toBe("−20%");
    expect(fractionPercent("1")).toBe("no change");
    expect(terrainEffects({ name: "Grand Stadium", atk: { "Society and sport": "6/5" }, roundDamage: { "5": "3/2" } })).toEqual([
      "Society and sport: ATK +20%",
      "Round 5: damage ×1.5",
    ]);
    expect(terrainEffects({ name: "Cabinet of curiosities", knowledgeFactor: "3/2", knowledgeCap: "1/4" })).toEqual([
      "Knowledge question: effects ×1.5, never beyond ±25%",
    ]);
    expect(terrainEffects({ name: "Fog", hidesCategories: true })).toEqual(["The defense cards' categories are hidden"]);
  });

  it("tells the rounds from the attacker's seat and the defender's", () => {
    const resolved = { type: "round_resolved", number: 2, toDefense: 14, toAttacker: 9, attackerHp: 126, defenseHp: 115 };
    expect(describeEvent(resolved)).toBe("Round 2: 14 damage to the defense, 9 to you. Hit points: you 126, defense 115.");
    expect(describeEvent(resolved, "defender")).toBe("Round 2: 14 damage to the defense, 9 to the attacker. Hit points: attacker 126, defense 115.");
    expect(describeEvent({ type: "card_played", round: 3, name: "Eiffel Tower", auto: true })).toMatch(/the server played Eiffel Tower/);
    expect(starsText(2)).toBe("★★☆ Two stars");
    expect(describeEvent({ type: "question_answered", round: 1, answered: "wrong", effect: "-1/20" })).toBe("The question was answered wrong: effect −5%.");
  });
});
