import { describe, expect, it } from "vitest";

import { activeFirst, matchText, recordText } from "./QuestVersus";

describe("your matches against players, in words", () => {
  const now = new Date("2026-12-02T10:00:00Z");

  it("says whose move an active match waits for", () => {
    expect(matchText({ opponentName: "Keeper-3fa2c1", status: "active", yourTurn: true }, now)).toBe("Against Keeper-3fa2c1: your move.");
    expect(matchText({ opponentName: "Keeper-3fa2c1", status: "active", yourTurn: false, deadline: "2026-12-02T10:30:00Z" }, now))
      .toMatch(/^Against Keeper-3fa2c1: their move by .*\d:\d\d.*\.$/);
  });

  it("says how a finished match ended, against a deleted player too", () => {
    expect(matchText({ opponentName: "Deleted player", status: "finished", outcome: "victory" }, now)).toBe("Against Deleted player: you won.");
    expect(matchText({ opponentName: "Keeper-3fa2c1", status: "finished", outcome: "forfeit" }, now)).toBe("Against Keeper-3fa2c1: you forfeited.");
  });

  it("counts the record, and the results beyond 3 a day against the same player apart", () => {
    expect(recordText({ wins: 1, losses: 0, uncounted: 0 })).toBe("Your record: 1 win, 0 losses.");
    expect(recordText({ wins: 3, losses: 1, uncounted: 2 })).toBe("Your record: 3 wins, 1 loss (2 more not counted: over 3 a day against the same player).");
    expect(recordText(undefined)).toBe("Your record: 0 wins, 0 losses.");
  });

  it("puts the active matches on top, each part newest first as the pages came", () => {
    const pages = [
      { id: "m5", status: "finished" }, { id: "m4", status: "active" },
      { id: "m3", status: "finished" }, { id: "m2", status: "active" }, { id: "m1", status: "finished" },
    ];
    expect(activeFirst(pages).map((m) => m.id)).toEqual(["m4", "m2", "m5", "m3", "m1"]);
  });
});
