import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, describe, expect, it, vi } from "vitest";

const sent: unknown[] = [];
const card = (index: number, used = false) => ({ index, used, name: `Card ${index}`, category: "History", rarity: "Common", cost: 1, atk: 30, def: 30 });
const questionView = {
  id: "a1",
  status: "active",
  phase: "question",
  version: 4,
  round: 2,
  deadline: new Date(Date.now() + 15_000).toISOString(),
  attackerHp: 141,
  defenseHp: 129,
  defender: "Keeper-3fa2c1",
  reconnaissance: { pseudonym: "Keeper-3fa2c1", level: 1, trophies: 0, terrain: { name: "Fog", hidesCategories: true }, categories: null },
  deck: [card(0, true), card(1, true), card(2)],
  rounds: [],
  revealedNow: { round: 2, reserve: false, card: { name: "Eiffel Tower", category: "Arts and culture", rarity: "Common", atk: 40, def: 30 } },
  question: {
    round: 2,
    difficulty: "easy",
    answered: null,
    prompt: "In which year did Eiffel Tower come into being?",
    choices: ["1829", "1889", "1919"],
    stake: { difficulty: "easy", changes: "your cards' ATK", right: "+15%", wrong: "-5%", fromRound: 2 },
    effect: null,
  },
  result: null,
  legalActions: [{ kind: "answer", choice: 0 }, { kind: "answer", choice: 1 }, { kind: "answer", choice: 2 }, { kind: "skip" }, { kind: "give_up" }],
};

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async () => ({ data: questionView, response: new Response(null, { status: 200 }) })),
    POST: vi.fn(async (_path: string, init: { body: unknown }) => {
      sent.push(init.body);
      return { data: { ...questionView, phase: "choose", question: { ...questionView.question, answered: "right" }, events: [{ type: "question_answered", round: 2, answered: "right", effect: "3/20" }] }, response: new Response(null, { status: 200 }) };
    }),
  },
  idempotencyKey: () => "k",
  unwrap: async <T,>(call: Promise<{ data?: T }>) => (await call).data as T,
}));

const { Attack } = await import("./Attack");

describe("the knowledge question", () => {
  afterEach(cleanup);

  it("shows the stake before the answers, counts 15 s from the deadline, and sends only the choice", async () => {
    render(<Attack id="a1" />);
    expect(await screen.findByText(/a right answer gives \+15% to your cards' ATK; a wrong one -5%/)).toBeTruthy();
    const left = screen.getByLabelText(/^Question time left: \d+ seconds left$/);
    expect(left.textContent).toMatch(/^0:(0\d|1[0-5])$/); // at most 15 s, from the server's deadline
    expect(screen.getByText(/hidden by the terrain/)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Answer: 1889" }));
    await waitFor(() => expect(sent).toHaveLength(1));
    expect(sent[0]).toEqual({ expectedVersion: 4, action: { kind: "answer", choice: 1 }, idempotencyKey: "k" });
    expect(await screen.findByText("The question was answered right: effect +15%.")).toBeTruthy();
  });
});
