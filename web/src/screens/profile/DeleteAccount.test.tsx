import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

import { ApiError, type ServerCode } from "../../api/problems";

const answers: { deletion: unknown[]; refuse: ServerCode | null } = { deletion: [], refuse: null };
const sent: unknown[] = [];

vi.mock("../../api/client", () => ({
  api: {
    DELETE: vi.fn(async (_path: string, init: { body: unknown }) => {
      sent.push(init.body);
      if (answers.refuse) throw new ApiError({ status: 403, code: answers.refuse, detail: "" });
      return { data: { id: "d1", status: "purging_data", services: { cards: "pending", battle: "purged" } } };
    }),
    GET: vi.fn(async () => ({ data: answers.deletion.shift() })),
  },
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));
vi.mock("../../config", () => ({ config: () => ({ pollSeconds: 0.01 }) }));

const { DeleteAccount, CONFIRMATION, deletionText } = await import("./DeleteAccount");

describe("deleting the account", () => {
  beforeEach(() => {
    sent.length = 0;
    answers.deletion = [];
    answers.refuse = null;
  });
  afterEach(cleanup);

  it("keeps the button disabled until the exact sentence is typed", () => {
    render(<DeleteAccount onSignOut={() => {}} onDeleted={() => {}} />);
    const button = screen.getByRole("button", { name: "Delete my account" }) as HTMLButtonElement;
    const input = screen.getByLabelText(`Type ${CONFIRMATION} to confirm`);
    fireEvent.input(input, { target: { value: "delete my account" } });
    expect(button.disabled).toBe(true);
    fireEvent.input(input, { target: { value: CONFIRMATION } });
    expect(button.disabled).toBe(false);
  });

  it("offers to sign in again when the server wants a recent sign-in", async () => {
    answers.refuse = "reauthentication_required";
    const signOut = vi.fn();
    render(<DeleteAccount onSignOut={signOut} onDeleted={() => {}} />);
    fireEvent.input(screen.getByLabelText(`Type ${CONFIRMATION} to confirm`), { target: { value: CONFIRMATION } });
    fireEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    expect(await screen.findByRole("alert")).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Sign in again" }));
    expect(signOut).toHaveBeenCalledOnce();
    expect(sent).toEqual([{ confirm: CONFIRMATION }]);
  });

  it("shows the progress it reads until the deletion completes, then says it is done", async () => {
    answers.deletion = [
      { id: "d1", status: "deleting_identity", services: { cards: "purged", battle: "purged" } },
      { id: "d1", status: "completed", services: { cards: "purged", battle: "purged" } },
    ];
    const deleted = vi.fn();
    render(<DeleteAccount onSignOut={() => {}} onDeleted={deleted} />);
    fireEvent.input(screen.getByLabelText(`Type ${CONFIRMATION} to confirm`), { target: { value: CONFIRMATION } });
    fireEvent.click(screen.getByRole("button", { name: "Delete my account" }));
    expect((await screen.findByRole("status")).textContent).toMatch(
      // The first answer's, or already the next poll's.
      /^Your account is locked and being deleted: (removing your data \(1|deleting your sign-in \(2|done \(2) of 2 parts of Deckyard purged\)\./,
    );
    await waitFor(() => expect(deleted).toHaveBeenCalledOnce());
  });

  it("words each step", () => {
    expect(deletionText({ status: "deleting_identity", services: {} })).toBe(
      "Your account is locked and being deleted: deleting your sign-in.",
    );
  });
});
