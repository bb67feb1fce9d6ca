import { act, cleanup, render, screen } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

vi.mock("../config", () => ({
  apiBase: () => "http://api.test/v1",
  config: () => ({ auth0: null, devAuth: true, pollSeconds: 1, audience: "a", rolesClaim: "r" }),
}));

const answers: Record<string, { status: number; body: unknown }> = {};
const fetchStub = vi.fn(async (request: Request) => {
  const answer = answers[new URL(request.url).pathname] ?? { status: 200, body: {} };
  const type = answer.status >= 400 ? "application/problem+json" : "application/json";
  return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { "Content-Type": type } });
});
vi.stubGlobal("fetch", fetchStub);

const { api, rebuildClient } = await import("../api/client");
const { beginSession } = await import("./begin");
const { ACCOUNT_NOTICES, leaveNotice, takeNotice } = await import("./notice");
const { session, setSession } = await import("./session");
const { SignIn } = await import("../screens/signin/SignIn");

const player = (token: string) => ({ token, sub: "dev|ada", roles: [], expiresAt: 4102444800, via: "dev" as const });
const refuse = (code: string) => ({ status: 403, body: { status: 403, code, detail: "refused" } });

describe("an account the server refuses ends the session", () => {
  beforeEach(() => {
    rebuildClient();
    for (const path of Object.keys(answers)) delete answers[path];
    setSession(null);
    takeNotice();
  });
  afterEach(cleanup);

  it("never stores a session whose sign-in the server answers account_deleted, and says why", async () => {
    answers["/v1/me"] = refuse("account_deleted");
    await beginSession(player("t-deleted"));
    expect(session()).toBeNull();
    expect(sessionStorage.getItem("deckyard.session")).toBeNull();
    expect(takeNotice()).toBe(ACCOUNT_NOTICES.account_deleted);
  });

  it("turns a locked account away at sign-in with its own words", async () => {
    answers["/v1/me"] = refuse("account_locked");
    await beginSession(player("t-locked"));
    expect(session()).toBeNull();
    expect(takeNotice()).toBe(ACCOUNT_NOTICES.account_locked);
  });

  it("keeps a session the server accepts", async () => {
    answers["/v1/me"] = { status: 200, body: { registeredNow: true } };
    await beginSession(player("t-ok"));
    expect(session()).toMatchObject({ token: "t-ok", welcome: true });
    expect(takeNotice()).toBeNull();
  });

  it("signs out on a later call answered account_deleted, with the sign-in page's words", async () => {
    setSession(player("t-kept"));
    answers["/v1/quest/starter"] = refuse("account_deleted");
    await api.GET("/quest/starter");
    expect(session()).toBeNull();
    expect(sessionStorage.getItem("deckyard.session")).toBeNull();
    expect(takeNotice()).toBe(ACCOUNT_NOTICES.account_deleted);
  });

  it("keeps the session on any other 403, and on a refusal of another token", async () => {
    setSession(player("t-kept"));
    answers["/v1/quest/starter"] = refuse("author_role_required");
    await api.GET("/quest/starter");
    answers["/v1/me"] = refuse("account_deleted");
    await api.GET("/me", { headers: { Authorization: "Bearer someone-else" } });
    expect(session()?.token).toBe("t-kept");
    expect(takeNotice()).toBeNull();
  });

  it("shows a notice left while the sign-in page is already open", async () => {
    render(<SignIn />);
    expect(screen.queryByRole("status")).toBeNull();
    act(() => leaveNotice(ACCOUNT_NOTICES.account_deleted ?? ""));
    expect(screen.getByRole("status").textContent).toBe(ACCOUNT_NOTICES.account_deleted);
  });
});
