import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

type Init = { params?: { path?: Record<string, string> }; body?: unknown };
const calls: { method: string; path: string; init: Init }[] = [];
const hour = 3600_000;
const invitations = {
  you: "Keeper-aaaaaa",
  items: [
    { id: "i1", from: "Keeper-bbbbbb", to: "Keeper-aaaaaa", sent: false, status: "pending", expiresAt: new Date(Date.now() + 24 * hour).toISOString() },
    { id: "i2", from: "Keeper-aaaaaa", to: "Keeper-cccccc", sent: true, status: "declined", expiresAt: new Date(Date.now() + hour).toISOString() },
    { id: "i4", from: "Keeper-aaaaaa", to: "Keeper-eeeeee", sent: true, status: "accepted", matchId: "match-9", expiresAt: new Date(Date.now() + hour).toISOString() },
  ],
  next: "1796130000000000-0f3c0000000000000000000000000000",
};
const ok = (data: unknown) => ({ data, response: new Response(null, { status: 200 }) });

vi.mock("../api/client", () => ({
  api: {
    GET: vi.fn(async (path: string, init: Init) => {
      calls.push({ method: "GET", path, init });
      return ok(invitations);
    }),
    POST: vi.fn(async (path: string, init: Init) => {
      calls.push({ method: "POST", path, init });
      if (path.endsWith("/accept")) return ok({ id: "match-7" });
      return ok({ id: "i3", to: (init.body as { to: string }).to, sent: true, status: "pending" });
    }),
    DELETE: vi.fn(async (path: string, init: Init) => {
      calls.push({ method: "DELETE", path, init });
      return ok({});
    }),
  },
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));

const { InvitationsLobby, invitationText, untilText } = await import("./InvitationsLobby");

describe("the invitations lobby every game shares", () => {
  beforeEach(() => {
    calls.length = 0;
  });
  afterEach(cleanup);

  it("reads and sends the invitations of its own game, with the chosen deck", async () => {
    render(<InvitationsLobby game="quest" deckId="deck-1" expiry="24 hours" onAccepted={() => undefined} />);
    expect((await screen.findByText(/^Your pseudonym:/)).textContent).toBe("Your pseudonym: Keeper-aaaaaa. Share it: other players invite you by it.");
    // The newest page only (the list is paged: older ones are answered or expired).
    expect(calls[0]).toMatchObject({ method: "GET", path: "/{game}/invitations", init: { params: { path: { game: "quest" }, query: { limit: 20 } } } });
    expect(screen.getByText("An invitation expires after 24 hours.")).toBeTruthy();

    fireEvent.input(screen.getByLabelText("Pseudonym to invite"), { target: { value: " Keeper-dddddd " } });
    fireEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect((await screen.findByRole("status")).textContent).toBe("Invitation sent to Keeper-dddddd.");
    const sent = calls.find((c) => c.method === "POST");
    expect(sent).toMatchObject({ path: "/{game}/invitations", init: { params: { path: { game: "quest" } }, body: { to: "Keeper-dddddd", deckId: "deck-1" } } });
  });

  it("sends a live challenge when asked, and names one as such", async () => {
    render(<InvitationsLobby game="quest" deckId="deck-1" expiry="24 hours" liveChallenge onAccepted={() => undefined} />);
    expect(await screen.findByText("An invitation expires after 24 hours; a live challenge after 2 minutes.")).toBeTruthy();
    fireEvent.input(screen.getByLabelText("Pseudonym to invite"), { target: { value: "Keeper-dddddd" } });
    fireEvent.click(screen.getByLabelText("Live challenge (60-second turns)"));
    fireEvent.click(screen.getByRole("button", { name: "Send invitation" }));
    expect((await screen.findByRole("status")).textContent).toBe("Live challenge sent to Keeper-dddddd.");
    const sent = calls.find((c) => c.method === "POST");
    expect(sent).toMatchObject({ init: { body: { to: "Keeper-dddddd", deckId: "deck-1", mode: "live" } } });
    expect(invitationText({ from: "Keeper-bbbbbb", sent: false, status: "declined", mode: "live" })).toBe("Live challenge from Keeper-bbbbbb: declined.");
  });

  it("accepts with the chosen deck and hands the match on", async () => {
    const accepted: string[] = [];
    render(<InvitationsLobby game="quest" deckId="deck-2" expiry="24 hours" onAccepted={(id) => accepted.push(id)} />);
    fireEvent.click(await screen.findByRole("button", { name: "Accept the invitation from Keeper-bbbbbb" }));
    await waitFor(() => expect(accepted).toEqual(["match-7"]));
    expect(calls.find((c) => c.method === "POST")).toMatchObject({
      path: "/{game}/invitations/{invitation_id}/accept",
      init: { params: { path: { game: "quest", invitation_id: "i1" } }, body: { deckId: "deck-2" } },
    });
  });

  it("links an accepted invitation to its match where the screen says", async () => {
    render(<InvitationsLobby game="quest" deckId="deck-1" expiry="24 hours" onAccepted={() => undefined} matchHref={(id) => `#/quest/matches/${id}`} />);
    const link = await screen.findByRole("link", { name: "Open the match against Keeper-eeeeee" });
    expect(link.getAttribute("href")).toBe("#/quest/matches/match-9");
  });

  it("offers no accepting without a deck, and no answer to a settled invitation", async () => {
    render(<InvitationsLobby game="chronovore" deckId="" expiry="10 minutes" onAccepted={() => undefined} />);
    const accept = (await screen.findByRole("button", { name: "Accept the invitation from Keeper-bbbbbb" })) as HTMLButtonElement;
    expect(accept.disabled).toBe(true);
    expect(screen.queryByRole("button", { name: "Cancel the invitation to Keeper-cccccc" })).toBeNull();
    expect(screen.getByText("To Keeper-cccccc: declined.")).toBeTruthy();
  });

  it("says a pending invitation's end with its day when that is not today", () => {
    const now = new Date("2026-12-02T10:00:00Z");
    const pending = { from: "Keeper-bbbbbb", sent: false, status: "pending", expiresAt: "2026-12-03T10:00:00Z" };
    // The browser's locale writes the date and time; tomorrow's end names its day, today's does not.
    expect(invitationText(pending, now)).toMatch(/^From Keeper-bbbbbb: waiting for an answer, until .*\b3\b.*\d:\d\d.*\.$/);
    expect(untilText("2026-12-02T10:30:00Z", now)).not.toMatch(/\b2\b.*\d:\d\d/);
    expect(invitationText({ ...pending, status: "expired" }, now)).toBe("From Keeper-bbbbbb: expired.");
  });
});
