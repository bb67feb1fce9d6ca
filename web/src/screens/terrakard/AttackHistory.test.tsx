import { cleanup, fireEvent, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";

const pages: Record<string, unknown> = {
  first: {
    items: [
      { id: "a2", mode: "attack", defender: "Keeper-3fa2c1", status: "finished", outcome: "two_stars", stars: 2, roundsPlayed: 5, createdAt: "2026-12-01T10:00:00Z" },
      { id: "a1", mode: "tutorial", defender: "Training plan", status: "finished", outcome: "defeat", stars: 0, roundsPlayed: 1, createdAt: "2026-12-01T09:00:00Z" },
    ],
    next: "c1",
  },
  c1: { items: [{ id: "a0", mode: "attack", defender: "Deleted player", status: "active", roundsPlayed: 2 }], next: null },
};
const asked: unknown[] = [];

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async (_path: string, init: { params: { query: { cursor?: string } } }) => {
      asked.push(init.params.query);
      return { data: pages[init.params.query.cursor ?? "first"] };
    }),
  },
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));
vi.mock("../../stream/live", () => ({ useLive: () => {} }));

const { AttackHistory, attackResult, attackTarget } = await import("./AttackHistory");

describe("your TerraKard attacks", () => {
  afterEach(cleanup);

  it("says whom each attack was against and how it ended, the tutorial and one under way too", () => {
    const [won, tutorial] = (pages.first as { items: Parameters<typeof attackResult>[0][] }).items;
    if (!won || !tutorial) throw new Error("two attacks on the first page");
    expect(`${attackTarget(won)}: ${attackResult(won)}`).toBe("Keeper-3fa2c1: Victory: two stars, 5 rounds");
    expect(`${attackTarget(tutorial)}: ${attackResult(tutorial)}`).toBe("Training plan (the tutorial): Defeat, 1 round");
    expect(attackResult({ defender: "Deleted player", status: "active", roundsPlayed: 2 })).toBe(
      "under way, round 2 of 5 played",
    );
  });

  it("links every attack to its page and loads older ones from the server's cursor", async () => {
    render(<AttackHistory />);
    const list = await screen.findByRole("list", { name: "Your attacks, newest first" });
    expect(list.querySelectorAll("li")).toHaveLength(2);
    expect(screen.getByRole("link", { name: "Keeper-3fa2c1" }).getAttribute("href")).toBe("#/terrakard/attacks/a2");
    fireEvent.click(screen.getByRole("button", { name: "Show older attacks" }));
    expect(await screen.findByText(/under way, round 2 of 5 played/)).toBeTruthy();
    expect(asked).toEqual([{ limit: 20 }, { limit: 20, cursor: "c1" }]);
    expect(screen.queryByRole("button", { name: "Show older attacks" })).toBeNull();
  });
});
