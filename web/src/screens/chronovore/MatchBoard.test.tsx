import { cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ApiError } from "../../api/problems";

const hero = { health: 30, armor: 0, coins: 0, strength: 1, attack: 1, weapon: null };
const card = (name: string) => ({ name, kind: "event_card", cardClass: "neutral", rarity: "common", cost: 0, rewards: [] });
const spark = { uid: 1, card: card("Spark") };
const legal = [0, 1, 2, 3].map((slot) => ({ kind: "place", card: 1, slot }));

function pvpView(version: number, round = 1, opponentLocked = false) {
  return {
    id: "m1",
    mode: "pvp",
    seat: "second",
    status: "active",
    version,
    round,
    rounds: 5,
    deadline: new Date(Date.now() + 120_000).toISOString(),
    you: { hero, hand: [spark], slots: [null, null, null, null], locked: false, deckCount: 23, discardCount: 0 },
    opponent: { kind: "player", name: "Keeper-3fa2c1", hero, handCount: 7, deckCount: 23, locked: opponentLocked, slots: [null, null, null, null] },
    legalActions: [...legal, { kind: "lock" }],
  };
}

const sent: { expectedVersion: number }[] = [];
let current = pvpView(5);
let otherMovesAfterRead = 0;
const stale = () => new ApiError({ status: 409, code: "stale_version", detail: "the match is at version 5, not 3" });

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async () => {
      const seen = current;
      // The other player moves right after this read (once per count).
      if (otherMovesAfterRead > 0) {
        otherMovesAfterRead -= 1;
        current = { ...current, version: current.version + 1 };
      }
      return { data: seen };
    }),
    POST: vi.fn(async (_path: string, init: { body: { expectedVersion: number } }) => {
      sent.push(init.body);
      if (init.body.expectedVersion !== current.version) return { error: stale() };
      return { data: { ...current, version: current.version + 1, events: [] } };
    }),
  },
  idempotencyKey: () => "k",
  unwrap: async <T,>(call: Promise<{ data?: T; error?: ApiError }>) => {
    const answer = await call;
    if (answer.error) throw answer.error;
    return answer.data as T;
  },
}));

const { MatchBoard, sidesOf } = await import("./MatchBoard");

describe("a match against a player", () => {
  beforeEach(() => {
    sent.length = 0;
  });
  afterEach(cleanup);

  it("names the other player where the computer would be named", () => {
    expect(sidesOf(pvpView(1) as never)).toEqual({ you: "second", them: "Keeper-3fa2c1", theirs: "Keeper-3fa2c1's", themInline: "Keeper-3fa2c1" });
    render(<MatchBoard view={pvpView(1) as never} onView={() => {}} reload={async () => {}} />);
    expect(screen.getByRole("group", { name: "Keeper-3fa2c1's hero" })).toBeTruthy();
    expect(screen.getByText(/^Keeper-3fa2c1: 7 cards in hand/)).toBeTruthy();
  });

  it("sends a move again at the server's version when only the other side moved meanwhile", async () => {
    current = pvpView(5, 1, true);
    const shown: number[] = [];
    render(<MatchBoard view={pvpView(3) as never} onView={(v) => shown.push(v.version ?? 0)} reload={async () => {}} />);
    fireEvent.keyDown(screen.getByRole("button", { name: /^Spark\./ }), { key: "2" });
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent.map((b) => b.expectedVersion)).toEqual([3, 5]);
    await waitFor(() => expect(shown).toEqual([5, 6]));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("tries again at the newest version when the other side moves again meanwhile", async () => {
    current = pvpView(5, 1, true);
    otherMovesAfterRead = 1;
    const shown: number[] = [];
    render(<MatchBoard view={pvpView(3) as never} onView={(v) => shown.push(v.version ?? 0)} reload={async () => {}} />);
    fireEvent.keyDown(screen.getByRole("button", { name: /^Spark\./ }), { key: "2" });
    await waitFor(() => expect(sent).toHaveLength(3));
    expect(sent.map((b) => b.expectedVersion)).toEqual([3, 5, 6]);
    await waitFor(() => expect(shown.at(-1)).toBe(7));
    expect(screen.queryByRole("alert")).toBeNull();
  });

  it("keeps the refusal when the round moved on meanwhile: the move was meant for another round", async () => {
    current = pvpView(9, 2);
    render(<MatchBoard view={pvpView(3) as never} onView={() => {}} reload={async () => {}} />);
    fireEvent.keyDown(screen.getByRole("button", { name: /^Spark\./ }), { key: "1" });
    expect((await screen.findByRole("alert")).textContent).toContain("stale_version");
    expect(sent).toHaveLength(1);
  });
});

describe("a card's keywords", () => {
  afterEach(cleanup);

  it("shows each keyword bold beside the card in hand, its definition a tap away", () => {
    const initiative = { keyword: "initiative", name: "Initiative", definition: "This monster strikes the hero first." };
    const scout = { uid: 2, card: { name: "Bandit Scout", kind: "monster", cardClass: "neutral", rarity: "common", attack: 2, health: 2, initiative: true, rewards: [], keywords: [initiative] } };
    const view = { ...pvpView(1), you: { ...pvpView(1).you, hand: [spark, scout] } };
    render(<MatchBoard view={view as never} onView={() => {}} reload={async () => {}} />);
    const keywords = screen.getByRole("list", { name: "Keywords of Bandit Scout" });
    const word = within(keywords).getByText("Initiative");
    expect(word.tagName).toBe("STRONG");
    const details = word.closest("details")!;
    expect(details.textContent).toContain("This monster strikes the hero first.");
    expect(details.open).toBe(false);
    fireEvent.click(word.closest("summary")!);
    expect(details.open).toBe(true);
    expect(screen.queryByRole("list", { name: "Keywords of Spark" })).toBeNull();
  });
});
