import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const calls: { path: string; body: unknown }[] = [];
const hero = { health: 30, armor: 0, coins: 0, strength: 1, attack: 1, weapon: null };
const card = (name: string) => ({ name, kind: "event_card", cardClass: "neutral", rarity: "common", cost: 0, rewards: [{ type: "coins", amount: 1 }] });

function view(slots: unknown[], hand: unknown[], legalActions: unknown[]) {
  return {
    id: "m1",
    status: "active",
    version: 3,
    round: 1,
    rounds: 5,
    deadline: new Date(Date.now() + 120_000).toISOString(),
    you: { hero, hand, slots, locked: false, deckCount: 23, discardCount: 0 },
    opponent: { hero, handCount: 7, deckCount: 23, locked: true, slots: ["face_down", null, null, null] },
    legalActions,
  };
}
const first = { uid: 1, card: card("Spark") };
const second = { uid: 2, card: card("Ember") };
const start = view([null, null, null, null], [first, second], [
  ...[0, 1, 2, 3].flatMap((slot) => [{ kind: "place", card: 1, slot }, { kind: "place", card: 2, slot }]),
  { kind: "lock" },
  { kind: "forfeit" },
]);
const placed = view([first, null, null, null], [second], [
  { kind: "take_back", slot: 0 },
  { kind: "move", slot: 0, to: 1 },
  { kind: "place", card: 2, slot: 1 },
  { kind: "lock" },
]);

let loaded: typeof start | null = start; // the match under way the screen finds, if any
const asked: string[] = []; // every path the screen read

// The list of matches says whether one is under way; the match itself is read by its id.
function answer(path: string) {
  asked.push(path);
  if (path === "/chronovore/matches") {
    return { items: loaded ? [{ id: loaded.id, status: "active" }] : [{ id: "old", status: "finished" }], next: null };
  }
  if (path === "/chronovore/decks") return { items: [{ id: "d1", name: "Night shift", legal: true }], next: null };
  return loaded;
}

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async (path: string) => ({ data: answer(path), response: new Response(null, { status: 200 }) })),
    POST: vi.fn(async (path: string, init: { body: { action: { kind: string } } }) => {
      calls.push({ path, body: init.body });
      const next = init.body.action.kind === "place" ? placed : start;
      return { data: { ...next, events: [] }, response: new Response(null, { status: 200 }) };
    }),
  },
  idempotencyKey: () => "k",
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
  listed: async <T,>(call: Promise<{ data?: { items: T[] } }>) => (await call).data!.items,
}));

const { Match } = await import("./Match");

describe("finding the match under way", () => {
  beforeEach(() => {
    asked.length = 0;
  });
  afterEach(cleanup);

  it("offers a new match when the newest is over, never asking for an active match that is not there", async () => {
    loaded = null;
    render(<Match />);
    expect(await screen.findByRole("button", { name: "Play the computer" })).toBeTruthy();
    expect(asked).not.toContain("/chronovore/matches/active");
    expect(asked).not.toContain("/chronovore/matches/{match_id}");
  });

  it("opens the match under way by its id", async () => {
    loaded = start;
    render(<Match />);
    expect(await screen.findByRole("button", { name: /^Spark\./ })).toBeTruthy();
    expect(asked.slice(0, 2)).toEqual(["/chronovore/matches", "/chronovore/matches/{match_id}"]);
  });
});

describe("the lock-in row from the keyboard", () => {
  beforeEach(() => {
    calls.length = 0;
    loaded = start;
  });
  afterEach(cleanup);

  it("places a focused card with 1–4 and takes it back with Backspace", async () => {
    render(<Match />);
    const spark = await screen.findByRole("button", { name: /^Spark\./ });
    fireEvent.keyDown(spark, { key: "1" });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ expectedVersion: 3, action: { kind: "place", card: 1, slot: 0 } });

    const slotted = await screen.findByRole("button", { name: /^Slot 1: Spark/ });
    await waitFor(() => expect(document.activeElement).toBe(slotted));
    fireEvent.keyDown(slotted, { key: "Backspace" });
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toMatchObject({ action: { kind: "take_back", slot: 0 } });
  });

  it("places a card dropped on a slot", async () => {
    render(<Match />);
    await screen.findByRole("button", { name: /^Ember\./ });
    const slots = screen.getByRole("list", { name: "Your row" }).querySelectorAll("li");
    const data = new Map<string, string>();
    fireEvent.dragStart(screen.getByRole("button", { name: /^Ember\./ }), { dataTransfer: { setData: (k: string, v: string) => data.set(k, v) } });
    fireEvent.drop(slots[2]!, { dataTransfer: { getData: (k: string) => data.get(k) ?? "" } });
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ action: { kind: "place", card: 2, slot: 2 } });
  });

  it("says a taken slot is taken instead of sending what the server would refuse", async () => {
    render(<Match />);
    const spark = await screen.findByRole("button", { name: /^Spark\./ });
    fireEvent.keyDown(spark, { key: "1" });
    const ember = await screen.findByRole("button", { name: /^Ember\./ });
    await screen.findByRole("button", { name: /^Slot 1: Spark/ });
    fireEvent.keyDown(ember, { key: "1" });
    expect((await screen.findByRole("alert")).textContent).toBe("Slot 1 is taken: move that card or take it back first.");
    expect(calls).toHaveLength(1);
  });
});

describe("the lock-in row by taps", () => {
  beforeEach(() => {
    calls.length = 0;
  });
  afterEach(cleanup);

  it("picks a card up with a tap, says where it can go, and places it on the slot tapped next", async () => {
    loaded = start;
    render(<Match />);
    expect((await screen.findByText(/^Tap a card in your hand, then a slot/)).getAttribute("role")).toBe("status");
    expect(screen.queryByRole("button", { name: /^Place / })).toBeNull();
    const ember = screen.getByRole("button", { name: /^Ember\./ });
    fireEvent.click(ember);
    expect(ember.getAttribute("aria-pressed")).toBe("true");
    expect(ember.textContent).toContain("Picked up");
    expect(screen.getByText("Tap a slot to place Ember, or tap it again to keep it in your hand.").getAttribute("role")).toBe("status");
    expect(screen.getAllByRole("button", { name: /^Place Ember in slot \d$/ })).toHaveLength(4);
    expect(calls).toHaveLength(0);
    fireEvent.click(screen.getByRole("button", { name: "Place Ember in slot 3" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ expectedVersion: 3, action: { kind: "place", card: 2, slot: 2 } });
  });

  it("puts a picked card down when it is tapped again, sending nothing", async () => {
    loaded = start;
    render(<Match />);
    const spark = await screen.findByRole("button", { name: /^Spark\./ });
    fireEvent.click(spark);
    fireEvent.click(spark);
    expect(spark.getAttribute("aria-pressed")).toBe("false");
    expect(screen.queryByRole("button", { name: /^Place / })).toBeNull();
    expect(screen.getByText(/^Tap a card in your hand, then a slot/)).toBeTruthy();
    expect(calls).toHaveLength(0);
  });

  it("moves a slotted card to the empty slot tapped next, and takes it back when tapped again", async () => {
    loaded = placed;
    render(<Match />);
    const slotted = await screen.findByRole("button", { name: /^Slot 1: Spark/ });
    fireEvent.click(slotted);
    expect(screen.getByText("Tap an empty slot to move Spark there, or tap it again to take it back to your hand.")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Move Spark in slot 2" }));
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(calls[0]!.body).toMatchObject({ action: { kind: "move", slot: 0, to: 1 } });

    cleanup();
    render(<Match />);
    const again = await screen.findByRole("button", { name: /^Slot 1: Spark/ });
    fireEvent.click(again);
    fireEvent.click(again);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls[1]!.body).toMatchObject({ action: { kind: "take_back", slot: 0 } });
  });
});
