import { cleanup, render, screen } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";

/** What the arena's reads answer; a path left out never answers (still loading). */
const answers: Record<string, unknown> = {};

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn((path: string) =>
      path in answers ? Promise.resolve({ data: answers[path], response: new Response(null, { status: 200 }) }) : new Promise(() => undefined),
    ),
  },
  listed: async <T,>(call: Promise<{ data?: { items: T[] } }>) => (await call).data?.items ?? [],
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));
vi.mock("../../stream/live", () => ({ useLive: () => undefined }));

const { Arena } = await import("./Arena");

const deck = { id: "d1", name: "Raid", legal: true, cost: 8, budget: 12 };
const target = { targetId: "t1", pseudonym: "Keeper-3fa2c1", level: 2, trophies: 10, automatic: false };

describe("the arena", () => {
  afterEach(() => {
    cleanup();
    for (const path of Object.keys(answers)) delete answers[path];
  });

  it("says no count of targets while it loads, never Targets (0)", () => {
    render(<Arena />);
    expect(screen.getByRole("heading", { name: "Targets" })).toBeTruthy();
    expect(screen.queryByText(/Targets \(0\)/)).toBeNull();
  });

  it("shows Attack disabled with the reason in words when no ticket is left", async () => {
    Object.assign(answers, {
      "/terrakard/arena": { level: 2, items: [target] },
      "/terrakard/profile": { tickets: 0, maxTickets: 5, trophies: 3, tutorialFinished: true, questions: true },
      "/terrakard/decks": { items: [deck], next: null },
    });
    render(<Arena />);
    expect(await screen.findByRole("heading", { name: "Targets (1)" })).toBeTruthy();
    const attack = await screen.findByRole("button", { name: "Attack Keeper-3fa2c1" });
    expect(await screen.findByText("You have no attack ticket left.")).toBeTruthy();
    expect((attack as HTMLButtonElement).disabled).toBe(true);
  });
});
