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

const { Arena, emptyArenaText } = await import("./Arena");

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

  it("says in words why no one is offered and from when that changes", async () => {
    const until = "2026-12-03T09:00:00+00:00";
    Object.assign(answers, {
      "/terrakard/arena": {
        level: 1,
        items: [],
        empty: { reason: "players_protected", message: "The players near your level are protected.", until },
      },
      "/terrakard/profile": { tickets: 5, maxTickets: 5, trophies: 0, tutorialFinished: true, questions: true },
      "/terrakard/decks": { items: [deck], next: null },
    });
    render(<Arena />);
    expect(await screen.findByRole("heading", { name: "Targets (0)" })).toBeTruthy();
    const status = await screen.findByRole("status");
    expect(status.textContent).toBe(
      `The players near your level are protected. The first of them can be attacked from ${new Date(until).toLocaleString()}.`,
    );
    expect(document.body.textContent).not.toContain("players_protected");
  });

  it("names a demo defender as a demo, not a player, and lets it be attacked", async () => {
    Object.assign(answers, {
      "/terrakard/arena": {
        level: 1,
        items: [{ targetId: "t2", pseudonym: "Quill the Apprentice (demo)", level: 1, trophies: 0, automatic: false, demo: true }],
        empty: null,
      },
      "/terrakard/profile": { tickets: 5, maxTickets: 5, trophies: 0, tutorialFinished: true, questions: true },
      "/terrakard/decks": { items: [deck], next: null },
    });
    render(<Arena />);
    const attack = await screen.findByRole("button", { name: "Attack Quill the Apprentice (demo)" });
    expect(screen.getByText(/A demo defender, not a player/)).toBeTruthy();
    await vi.waitFor(() => expect((attack as HTMLButtonElement).disabled).toBe(false));
  });
});

describe("an empty arena's words", () => {
  it("falls back to a plain sentence when the server gives no reason", () => {
    expect(emptyArenaText(null)).toBe("No one to attack right now. Come back later.");
  });

  it("is the server's sentence alone when nothing fixes the moment it changes", () => {
    const message = "You attacked the players near your level in the last 12 hours.";
    expect(emptyArenaText({ reason: "attacked_recently", message, until: null })).toBe(message);
  });
});
