import { describe, expect, it } from "vitest";

import { fractionText, slotGroups, title } from "./odds";

describe("pack odds in words", () => {
  it("keeps the exact fraction and adds a percentage", () => {
    expect(fractionText("2/3")).toBe("2/3 (66.7%)");
    expect(fractionText("19/20")).toBe("19/20 (95%)");
    expect(fractionText("1/2000")).toBe("1/2000 (0.050%)");
    expect(fractionText("1")).toBe("1 (100%)");
    expect(fractionText("99/2000")).toBe("99/2000 (4.95%)");
  });

  it("shows identical slots once and different slots one by one", () => {
    const a = { common: "2/3" };
    const b = { uncommon: "1" };
    expect(slotGroups([a, a, a])).toEqual([{ label: "Each of the 3 cards", odds: a }]);
    expect(slotGroups([a, b]).map((g) => g.label)).toEqual(["Card 1", "Card 2"]);
    expect(title("diamond")).toBe("Diamond");
  });
});
