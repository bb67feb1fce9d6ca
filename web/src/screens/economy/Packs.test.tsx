import { cleanup, fireEvent, render, screen, within } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";

/** The TerraKard shop and a pack, as the API answers them (one pack of cards opened). */
const answers: Record<string, unknown> = {
  "/{game}/packs/odds": { items: [{ kind: "rampart", name: "Rampart Pack", cards: 1, price: { amount: 5, currency: "rampart_tokens" }, slotRarityOdds: [], finishOdds: {}, rarities: [] }] },
  "/{game}/packs": { packs: [{ id: "p1", kind: "rampart" }] },
  "/{game}/wallet": { balances: [{ currency: "rampart_tokens", balance: 0 }] },
  "/cards/catalogue": { items: [{ id: "t1", name: "Eiffel Tower", rarity: "Epic", definition: { category: "Geography", atk: 31, def: 27 } }], next: null },
};

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async (path: string) => ({ data: answers[path], response: new Response(null, { status: 200 }) })),
    POST: vi.fn(async () => ({
      data: { packId: "p1", cards: [{ ownedCardId: "o1", definitionId: "t1", name: "Eiffel Tower", rarity: "Epic", finish: "standard" }] },
      response: new Response(null, { status: 200 }),
    })),
  },
  idempotencyKey: () => "key",
  listed: async <T,>(call: Promise<{ data?: { items: T[] } }>) => (await call).data?.items ?? [],
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));

const { Packs } = await import("./Packs");

describe("the packs of a game", () => {
  afterEach(cleanup);

  it("shows a buy the wallet cannot pay disabled, saying why in words, never a currency's code", async () => {
    render(<Packs game="terrakard" />);
    const buy = await screen.findByRole("button", { name: "Buy 1 for 5 Rampart tokens" });
    expect(await screen.findByText("You have 0 Rampart tokens: 1 costs 5. Earn 5 more: each defense you win in the arena earns 1.")).toBeTruthy();
    expect((buy as HTMLButtonElement).disabled).toBe(true);
    expect(document.body.textContent).not.toContain("rampart_tokens");
  });

  it("draws the cards of an opened pack as cards, their stats from the catalogue", async () => {
    render(<Packs game="terrakard" />);
    fireEvent.click(await screen.findByRole("button", { name: "Open a Rampart Pack" }));
    const pack = await screen.findByRole("list", { name: "Cards in the pack" });
    const card = within(pack).getByRole("article", { name: "Eiffel Tower" });
    expect(card.textContent).toContain("Epic · Standard");
    await within(card).findByText("31");
    expect(card.textContent).toContain("ATK 31");
  });

  it("says how a victory pack is earned, with no button that only refuses", async () => {
    const before = answers["/{game}/packs/odds"];
    answers["/{game}/packs/odds"] = { items: [{ kind: "gold", name: "Gold Pack", cards: 5, price: null, slotRarityOdds: [], finishOdds: {}, rarities: [] }] };
    try {
      render(<Packs game="terrakard" />);
      expect(await screen.findByText(/Win an attack in the arena to earn one: three stars a Gold Pack/)).toBeTruthy();
      expect(screen.queryByRole("button", { name: /Buy/ })).toBeNull();
    } finally {
      answers["/{game}/packs/odds"] = before;
    }
  });

  it("says how many games of Gold a Chronovore pack is away, the buy disabled", async () => {
    const before = { odds: answers["/{game}/packs/odds"], wallet: answers["/{game}/wallet"] };
    answers["/{game}/packs/odds"] = { items: [{ kind: "core", name: "Core Set Pack", cards: 5, price: { amount: 10, currency: "gold" }, slotRarityOdds: [], finishOdds: {}, rarities: [] }] };
    answers["/{game}/wallet"] = { balances: [{ currency: "gold", balance: 3 }] };
    try {
      render(<Packs game="chronovore" />);
      const buy = await screen.findByRole("button", { name: "Buy 1 for 10 Gold" });
      expect(await screen.findByText(/You have 3 Gold: 1 costs 10\. Earn 7 more: a finished game against the computer earns 1 Gold/)).toBeTruthy();
      expect((buy as HTMLButtonElement).disabled).toBe(true);
    } finally {
      answers["/{game}/packs/odds"] = before.odds;
      answers["/{game}/wallet"] = before.wallet;
    }
  });
});
