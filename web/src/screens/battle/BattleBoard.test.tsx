import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import type { BattleView } from "./BattleBoard";

type Init = { params?: { path?: Record<string, string> }; body?: Record<string, unknown> };
const posts: { path: string; init: Init }[] = [];
const creature = (name: string, index: number) => ({
  index, name, affinity: "Grit", hp: 30, maxHp: 30, power: 1, maxPower: 3, defeated: false,
  moves: [{ name: "Tackle", type: "attack", powerCost: 1, effects: [{ type: "damage", amount: 4 }] }],
});
const deadline = new Date(Date.now() + 24 * 3600_000).toISOString();

/** The invited player's view: the engine's side `cpu`, the inviter named by pseudonym. */
function invitedView(over: Partial<BattleView>): BattleView {
  return {
    id: "m1", status: "active", version: 4, side: "cpu", opponentName: "Keeper-77aa01", mode: "async",
    phase: "normal_turn", turnNumber: 1, yourTurn: false, deadline,
    you: { active: 0, creatures: [creature("Brambleback", 0), creature("Mossling", 1)], powerCards: [] },
    opponent: { active: creature("Quillip", 0), creaturesLeft: 3, powerCardsInHand: 2 },
    legalActions: [{ kind: "forfeit" }],
    ...over,
  };
}
const history: { version: number; entries: { seq: number; side: string; events: Record<string, unknown>[] }[] } = {
  version: 4,
  entries: [
    { seq: 3, side: "cpu", events: [{ type: "first_turn_chosen", side: "player" }] },
    { seq: 4, side: "player", events: [{ type: "turn_started", side: "player" }] },
  ],
};

const firstEntries = [...history.entries];

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async () => ({ data: history, response: new Response(null, { status: 200 }) })),
    POST: vi.fn(async (path: string, init: Init) => {
      posts.push({ path, init });
      return { data: { ...invitedView({ version: 5, yourTurn: false }), events: [] }, response: new Response(null, { status: 200 }) };
    }),
  },
  idempotencyKey: () => `key-${posts.length}`,
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));

const { BattleBoard } = await import("./BattleBoard");

describe("a Quest match against a player, from the invited player's seat", () => {
  beforeEach(() => {
    posts.length = 0;
    history.version = 4;
    history.entries = [...firstEntries];
  });
  afterEach(cleanup);

  it("names the opponent, says it is their decision and until when, never the computer", async () => {
    render(<BattleBoard view={invitedView({})} onView={() => undefined} reload={() => undefined} />);
    expect(screen.getByRole("status").textContent).toBe("Waiting for Keeper-77aa01.");
    expect(screen.getByText(/^Keeper-77aa01 must decide by/).textContent).toMatch(/\(2[34] h( \d+ min)? left\)\.$/);
    expect(screen.getByRole("heading", { name: /^Keeper-77aa01's: Quillip/ })).toBeTruthy();
    expect(screen.getByText("Keeper-77aa01 has 3 Creatures left and 2 Power cards in hand.")).toBeTruthy();
    await screen.findByText("Action log (2)");
    expect(screen.getByText("Keeper-77aa01 goes first.")).toBeTruthy();
    expect(document.body.textContent).not.toMatch(/computer|Turn time left/i);
  });

  it("says the other player has chosen their first Creature, without naming it", () => {
    const selection = invitedView({
      phase: "initial_selection",
      you: { active: null, creatures: [creature("Brambleback", 0)], powerCards: [] },
      opponent: { active: null, hasChosen: true, creaturesLeft: 3, powerCardsInHand: 2 },
      legalActions: [{ kind: "select_creature", index: 0 }, { kind: "forfeit" }],
    });
    render(<BattleBoard view={selection} onView={() => undefined} reload={() => undefined} />);
    expect(screen.getByRole("status").textContent).toBe("Choose the Creature you send out first.");
    expect(screen.getByText("Keeper-77aa01 has chosen their first Creature; it stays hidden until you choose yours.")).toBeTruthy();
    expect(screen.getByText("Keeper-77aa01's: none out yet.")).toBeTruthy();
    expect(screen.getByRole("button", { name: "Send out Brambleback" })).toBeTruthy();
  });

  it("on your turn, plays a legal action with the view's version and a key", async () => {
    const views: BattleView[] = [];
    const yours = invitedView({ yourTurn: true, turnNumber: 2, legalActions: [{ kind: "use_move", index: 0 }, { kind: "forfeit" }] });
    render(<BattleBoard view={yours} onView={(v) => views.push(v)} reload={() => undefined} />);
    expect(screen.getByRole("status").textContent).toBe("Your turn (turn 2).");
    expect(screen.getByText(/^Your decision is due by/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Use Tackle (1 Power): 4 damage" }));
    await waitFor(() => expect(views).toHaveLength(1));
    expect(posts[0]).toMatchObject({
      path: "/quest/battles/{match_id}/actions",
      init: { params: { path: { match_id: "m1" } }, body: { expectedVersion: 4, action: { kind: "use_move", index: 0 }, idempotencyKey: "key-0" } },
    });
  });

  it("shows what the other player's pushed move did, once the view moves on", async () => {
    const { rerender } = render(<BattleBoard view={invitedView({})} onView={() => undefined} reload={() => undefined} />);
    await screen.findByText("Action log (2)");
    expect(screen.queryByRole("heading", { name: "What just happened" })).toBeNull();
    history.version = 5;
    history.entries = [...history.entries, { seq: 5, side: "player", events: [{ type: "move_used", side: "player", name: "Quillip", move_name: "Tackle" }] }];
    rerender(<BattleBoard view={invitedView({ version: 5 })} onView={() => undefined} reload={() => undefined} />);
    await screen.findByRole("heading", { name: "What just happened" });
    expect(screen.getAllByText("Keeper-77aa01's Quillip uses Tackle.")).toHaveLength(2); // just now, and in the log
  });

  it("keeps the computer's 90-second timer for CPU battles", () => {
    const cpu = invitedView({ side: "player", opponentName: null, yourTurn: true, deadline: new Date(Date.now() + 90_000).toISOString() });
    render(<BattleBoard view={cpu} onView={() => undefined} reload={() => undefined} />);
    expect(screen.getByText(/^Turn time left/)).toBeTruthy();
    expect(screen.getByRole("heading", { name: /^The computer's: Quillip/ })).toBeTruthy();
    expect(screen.queryByText(/must decide by|decision is due/)).toBeNull();
  });
});
