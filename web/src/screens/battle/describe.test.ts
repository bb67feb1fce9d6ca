import { describe, expect, it } from "vitest";

import { AGAINST_THE_COMPUTER, actionLabel, describeEvent, describeEvents, leftText, seatOf, statusText } from "./describe";

const invited = seatOf({ side: "cpu", opponentName: "Keeper-3fa2c1" });
const inviter = seatOf({ side: "player", opponentName: "Keeper-77aa01" });

describe("the battle log told from a seat", () => {
  it("speaks of the computer in a CPU battle", () => {
    expect(seatOf({ side: "player", opponentName: null })).toEqual(AGAINST_THE_COMPUTER);
    expect(describeEvent({ type: "turn_started", side: "cpu" })).toBe("The computer's turn.");
    expect(describeEvent({ type: "power_card_played", side: "player", name: "Field Kit" })).toBe("You play Field Kit.");
    expect(describeEvent({ type: "first_turn_chosen", side: "player" })).toBe("You go first.");
    expect(describeEvent({ type: "match_finished", winner: "cpu", reason: "all_defeated" })).toBe("The battle is over: the computer won (all defeated).");
  });

  it("calls the invited player, who sits the engine's side cpu, you", () => {
    expect(describeEvent({ type: "turn_started", side: "cpu" }, invited)).toBe("Your turn.");
    expect(describeEvent({ type: "turn_started", side: "player" }, invited)).toBe("Keeper-3fa2c1's turn.");
    expect(describeEvent({ type: "first_turn_chosen", side: "player" }, invited)).toBe("Keeper-3fa2c1 goes first.");
    expect(describeEvent({ type: "creatures_revealed", sides: { player: { name: "Quillip" }, cpu: { name: "Brambleback" } } }, invited))
      .toBe("You send out Brambleback; Keeper-3fa2c1 sends out Quillip.");
    expect(describeEvent({ type: "match_finished", winner: "cpu", reason: "forfeit" }, invited)).toBe("The battle is over: you won (forfeit).");
    expect(describeEvent({ type: "forfeit", side: "player" }, invited)).toBe("Keeper-3fa2c1 forfeits.");
    expect(describeEvent({ type: "creature_defeated", side: "player", name: "Quillip" }, invited)).toBe("Keeper-3fa2c1's Quillip is defeated.");
    expect(describeEvent({ type: "move_used", side: "player", name: "Quillip", move_name: "Tackle" }, invited)).toBe("Keeper-3fa2c1's Quillip uses Tackle.");
    expect(describeEvent({ type: "move_used", side: "cpu", name: "Brambleback", move_name: "Bash" }, invited)).toBe("Your Brambleback uses Bash.");
  });

  it("names the invited player to the inviter, and never the computer", () => {
    const lines = [
      describeEvent({ type: "turn_started", side: "cpu" }, inviter),
      describeEvent({ type: "power_card_played", side: "cpu", name: "Field Kit" }, inviter),
      describeEvent({ type: "damage", side: "cpu", name: "Quillip", amount: 4, hp: 26 }, inviter),
    ];
    expect(lines).toEqual(["Keeper-77aa01's turn.", "Keeper-77aa01 plays Field Kit.", "Quillip takes 4 damage — 26 HP left."]);
    expect(lines.join(" ")).not.toMatch(/computer/i);
    expect(describeEvent({ type: "turn_started", side: "player" }, seatOf({ side: "cpu", opponentName: "Deleted player" }))).toBe("Deleted player's turn.");
  });
});

describe("the battle log in sentences", () => {
  it("says who hits whom, for how much, and the HP left, as the API sends the events", () => {
    // One action's events as the history answers them (camelCase members).
    const lines = describeEvents([
      { type: "move_used", side: "cpu", name: "Burrowk", moveName: "Dig In", cost: 2, power: 1 },
      { type: "damage", side: "player", name: "Quillip", amount: 12, hp: 48, dodged: false },
      { type: "poisoned", side: "player", name: "Quillip", amount: 3, turns: 2 },
      { type: "power_changed", side: "cpu", name: "Burrowk", amount: -1, power: 0 },
    ]);
    expect(lines).toEqual([
      "The computer's Burrowk uses Dig In (2 Power).",
      "Burrowk hits Quillip for 12 — 48 HP left.",
      "Quillip is poisoned: 3 damage a turn for 2 turns.",
      "Burrowk loses 1 Power (0 left).",
    ]);
  });

  it("tells a dodge once, and the end of a status in words", () => {
    const lines = describeEvents([
      { type: "move_used", side: "player", name: "Quillip", moveName: "Quill Poke", cost: 0 },
      { type: "dodged", side: "cpu", name: "Burrowk", chargesLeft: 0 },
      { type: "damage", side: "cpu", name: "Burrowk", amount: 0, hp: 60, dodged: true },
      { type: "effect_ended", side: "player", name: "Quillip", effect: "poison" },
      { type: "match_finished", winner: "player", reason: "all_defeated" },
    ]);
    expect(lines).toEqual([
      "Your Quillip uses Quill Poke.",
      "Burrowk dodges the attack (0 dodges left).",
      "Quillip is no longer poisoned.",
      "The battle is over: you won (all defeated).",
    ]);
    expect(lines.join(" ")).not.toMatch(/_/);
  });

  it("labels a move's button with its Power and its effects in words", () => {
    const you = { active: 0, creatures: [{ name: "Quillip", affinity: "Wit", hp: 60, maxHp: 60, power: 3, maxPower: 8, defeated: false,
      moves: [{ name: "Inkblot", type: "Wit", powerCost: 2, effects: [{ type: "damage", amount: 14 }, { type: "damage_modifier", target: "opponent", appliesTo: "dealt", multiplier: 0.8, turns: 1 }] }] }] };
    expect(actionLabel({ kind: "use_move", index: 0 }, you)).toBe("Use Inkblot (2 Power): 14 damage; the opponent deals 20% less damage for 1 turn");
  });
});

describe("where the battle stands", () => {
  const selection = { status: "active", phase: "initial_selection", yourTurn: false, legalActions: [{ kind: "select_creature", index: 0 }, { kind: "forfeit" }] };

  it("asks for your decision from the legal actions, or says whom it waits for", () => {
    expect(statusText(selection, invited)).toBe("Choose the Creature you send out first.");
    expect(statusText({ ...selection, legalActions: [{ kind: "forfeit" }] }, invited)).toBe("Waiting for Keeper-3fa2c1.");
    expect(statusText({ status: "active", phase: "normal_turn", yourTurn: true, turnNumber: 3 }, invited)).toBe("Your turn (turn 3).");
    expect(statusText({ status: "active", phase: "normal_turn", yourTurn: false, legalActions: [{ kind: "forfeit" }] })).toBe("Waiting for the computer.");
    expect(statusText({ status: "active", phase: "mandatory_replacement", legalActions: [{ kind: "swap", index: 2 }] }, inviter))
      .toBe("Choose the Creature that replaces your defeated one.");
  });

  it("tells a finished match's result, and a missed window", () => {
    expect(statusText({ status: "finished", outcome: "victory" }, invited)).toBe("Finished: you won.");
    expect(statusText({ status: "finished", outcome: "forfeit", finishReason: "missed_deadline" }, invited))
      .toBe("Finished: you forfeited (a decision window was missed).");
    expect(statusText({ status: "finished", outcome: "forfeit", finishReason: "disconnected" }, invited))
      .toBe("Finished: you forfeited (away from the game for 90 seconds).");
    expect(statusText({ status: "finished", outcome: "victory", finishReason: "timeouts" }, invited))
      .toBe("Finished: you won (your opponent missed three windows in a row).");
    expect(statusText({ status: "finished", outcome: "victory", finishReason: "disconnected" }, invited))
      .toBe("Finished: you won (your opponent was away for 90 seconds).");
  });

  it("says a 24-hour window's time left in hours and minutes", () => {
    expect(leftText(24 * 3600)).toBe("24 h left");
    expect(leftText(23 * 3600 + 59 * 60 + 1)).toBe("24 h left");
    expect(leftText(5 * 3600 + 30 * 60)).toBe("5 h 30 min left");
    expect(leftText(61)).toBe("2 min left");
    expect(leftText(0)).toBe("no time left");
  });
});
