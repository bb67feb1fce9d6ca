import { cleanup, fireEvent, render, screen, within } from "@testing-library/preact";
import { afterEach, describe, expect, it } from "vitest";

import { CardFace, GameCard } from "./GameCard";
import { chronovoreFace, openedFace, questFace, terrakardFace } from "./faces";

const quillip = {
  id: "d1", name: "Quillip", kind: "creature", rarity: "Rare", affinity: "Wit",
  definition: {
    hp: 60, maxPower: 8,
    moves: [
      { name: "Quill Poke", type: "Basic", powerCost: 0, effects: [{ type: "damage", amount: 10 }] },
      { name: "Inkblot", type: "Wit", powerCost: 2, effects: [{ type: "damage", amount: 14 }, { type: "damage_modifier", target: "opponent", appliesTo: "dealt", multiplier: 0.8, turns: 1 }] },
    ],
  },
};
const initiative = { keyword: "initiative", name: "Initiative", definition: "This monster strikes the hero first." };
const scout = { name: "Bandit Scout", kind: "monster", cardClass: "neutral", rarity: "uncommon", attack: 2, health: 3, initiative: true, rewards: [{ type: "coins", amount: 2 }], keywords: [initiative] };
/** Any pictograph an emoji font would be needed for (the marks are SVG). */
const EMOJI = /\p{Extended_Pictographic}/u;

describe("a card drawn from its data", () => {
  afterEach(cleanup);

  it("is an article named by the card, its cost, kind, rarity and stats readable as text", () => {
    render(<GameCard face={questFace(quillip, quillip)} />);
    const card = screen.getByRole("article", { name: "Quillip" });
    const text = card.textContent ?? "";
    expect(text).toContain("Cost 2"); // Rare costs 2 in a Quest deck
    expect(text).toContain("Wit · Creature");
    expect(text).toContain("Rare");
    expect(text).toContain("HP 60");
    expect(text).toContain("Power 8");
    expect(text).toContain("Inkblot (2 Power): 14 damage; the opponent deals 20% less damage for 1 turn");
    expect(text).not.toMatch(EMOJI);
    expect(card.className).toContain("gcard--rare");
    for (const mark of card.querySelectorAll("svg")) expect(mark.getAttribute("aria-hidden")).toBe("true");
  });

  it("shows TerraKard's cost, category, ATK and DEF the same way", () => {
    render(<GameCard face={terrakardFace({ name: "Eiffel Tower", category: "Geography", rarity: "Epic", cost: 4, atk: 31, def: 27 })} />);
    const text = screen.getByRole("article", { name: "Eiffel Tower" }).textContent ?? "";
    expect(text).toContain("Cost 4");
    expect(text).toContain("Geography");
    expect(text).toContain("ATK 31");
    expect(text).toContain("DEF 27");
  });

  it("shows a finish in words and in its frame, and each keyword bold with its definition a tap away", () => {
    render(<GameCard face={chronovoreFace(scout, "golden")} />);
    const card = screen.getByRole("article", { name: "Bandit Scout" });
    expect(card.className).toContain("gcard--golden");
    expect(card.textContent).toContain("Uncommon · Golden");
    expect(card.textContent).toContain("Attack 2");
    expect(card.textContent).toContain("Health 3");
    expect(card.textContent).toContain("+2 Coins");
    const keywords = within(card).getByRole("list", { name: "Keywords of Bandit Scout" });
    const word = within(keywords).getByText("Initiative");
    expect(word.tagName).toBe("STRONG");
    const details = word.closest("details")!;
    expect(details.open).toBe(false);
    fireEvent.click(word.closest("summary")!);
    expect(details.open).toBe(true);
    expect(details.textContent).toContain("This monster strikes the hero first.");
  });

  it("says an event's cost is in Coins", () => {
    const spark = { name: "Spark", kind: "event_card", cardClass: "engineer", rarity: "common", cost: 3, rewards: [{ type: "draw", amount: 1 }] };
    const text = render(<GameCard face={chronovoreFace(spark)} />).container.textContent ?? "";
    expect(text).toContain("Cost in Coins 3");
    expect(text).toContain("Engineer · Event");
    expect(text).not.toContain("Attack");
  });

  it("draws a face with phrasing content only, so a button can hold it", () => {
    render(<button type="button"><CardFace face={chronovoreFace(scout)} /></button>);
    const button = screen.getByRole("button");
    expect(button.querySelectorAll("div, p, ul, ol, li, article, details, button, a, h1, h2, h3")).toHaveLength(0);
    expect(button.textContent).toContain("Bandit Scout");
  });

  it("draws a pack's card with its finish, its stats from the catalogue when known", () => {
    const opened = { name: "Eiffel Tower", rarity: "Epic", finish: "standard", definitionId: "t1" };
    render(<GameCard face={openedFace("terrakard", opened, { id: "t1", definition: { category: "Geography", atk: 31, def: 27 } })} />);
    const text = screen.getByRole("article", { name: "Eiffel Tower" }).textContent ?? "";
    expect(text).toContain("Epic · Standard");
    expect(text).toContain("Cost 4");
    expect(text).toContain("ATK 31");
  });
});
