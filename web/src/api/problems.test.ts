import { describe, expect, it } from "vitest";

import { explain, problemItems, toProblem } from "./problems";

describe("problems as the client shows them", () => {
  it("explains a stale version in words and keeps the server's detail", () => {
    const text = explain({ status: 409, code: "stale_version", detail: "expected version 2, found 3" });
    expect(text).toMatch(/changed this since you loaded it/);
    expect(text).toMatch(/expected version 2, found 3/);
  });

  it("lists what readiness found missing, one line each", () => {
    const problem = {
      status: 409,
      code: "not_ready" as const,
      detail: "the content is not ready",
      problems: ["question q1 is not a published, valid question", "at least five questions"],
    };
    expect(problemItems(problem)).toEqual(problem.problems);
  });

  it("lists deck rule refusals and field errors", () => {
    expect(
      problemItems({
        status: 422,
        code: "deck_cost_exceeded",
        problems: [{ code: "deck_cost_exceeded", message: "cost 11 is over 10" }],
        fields: { name: ["Missing data for required field."] },
      }),
    ).toEqual(["cost 11 is over 10", "name: Missing data for required field."]);
  });

  it("names the dependents of a card that cannot be retired", () => {
    expect(problemItems({ status: 409, code: "card_in_use", dependents: ["starter set", "CPU deck"] })).toEqual([
      "dependents: starter set, CPU deck",
    ]);
  });

  it("turns an answer that is not a problem into one", () => {
    expect(toProblem("<html>", 502)).toMatchObject({ status: 502, code: "unexpected_answer" });
    expect(toProblem(null, 0)).toMatchObject({ code: "network_error" });
  });
});
