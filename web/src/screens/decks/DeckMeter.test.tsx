import { render, screen } from "@testing-library/preact";
import { describe, expect, it } from "vitest";

import { DeckMeter } from "./DeckMeter";

describe("the deck meter", () => {
  it("says the counts and the cost in words, with a mark that is not only colour", () => {
    render(
      <DeckMeter
        cards={[
          { id: "a", kind: "creature", rarity: "Legendary" },
          { id: "b", kind: "creature", rarity: "Legendary" },
          { id: "c", kind: "creature", rarity: "Epic" },
          { id: "d", kind: "power_card", rarity: "Common" },
        ]}
      />,
    );
    expect(screen.getByText("✓ Creatures: 3 of 3")).toBeTruthy();
    expect(screen.getByText("✗ Power cards: 1 of 2")).toBeTruthy();
    const meter = screen.getByLabelText(/Cost: 12 of 10 \(over the limit\)/);
    expect(meter.getAttribute("value")).toBe("12");
    expect(meter.getAttribute("max")).toBe("10"); // the real scale: full at the limit
    expect(screen.getByText(/Cost 12 is over the limit of 10\./)).toBeTruthy();
  });
});
