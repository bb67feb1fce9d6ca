import { describe, expect, it } from "vitest";

import { bodyOf, draftOf, fieldMessages, type FormField, pathsOf } from "./formModel";

const field = (name: string, type: FormField["type"], more: Partial<FormField> = {}): FormField => ({
  name,
  label: name,
  type,
  required: false,
  nullable: false,
  private: false,
  ...more,
});

const QUESTION: FormField[] = [
  field("prompt", "text", { required: true, multiline: true }),
  field("choices", "list", {
    maxItems: 4,
    item: field("choices", "object", { fields: [field("text", "text", { required: true }), field("correct", "boolean", { default: false })] }),
  }),
  field("difficulty", "integer", { nullable: true, min: 1, max: 3 }),
  field("effects", "json", { default: [] }),
  field("startsAt", "datetime"),
];

describe("a kind's form", () => {
  it("round-trips a body through the draft the inputs hold", () => {
    const body = { prompt: "Red?", choices: [{ text: "Mars", correct: true }], difficulty: 2, effects: [{ type: "heal", amount: 5 }] };
    const { body: sent, errors } = bodyOf(QUESTION, draftOf(QUESTION, body));
    expect(errors.size).toBe(0);
    expect(sent).toEqual(body); // startsAt left empty: left out, authoring's default applies
  });

  it("sends a number field's text as typed, for authoring to judge", () => {
    const draft = { ...draftOf(QUESTION, {}), prompt: "Red?", difficulty: "two" };
    expect(bodyOf(QUESTION, draft).body.difficulty).toBe("two");
  });

  it("says locally that text in a JSON field is not JSON, and sends nothing for it", () => {
    const draft = { ...draftOf(QUESTION, {}), effects: "[{" };
    const { body, errors } = bodyOf(QUESTION, draft);
    expect(body).not.toHaveProperty("effects");
    expect(errors.get("effects")?.[0]).toMatch(/^Not valid JSON/);
  });

  it("places authoring's messages on the fields they name, nested ones too", () => {
    const draft = draftOf(QUESTION, { choices: [{ text: "" }, { text: "Mars" }] });
    const problem = {
      status: 422,
      code: "invalid_content" as const,
      fields: { difficulty: ["Must be between 1 and 3."], choices: { "0": { text: ["Missing."] } } },
    };
    const placed = fieldMessages(problem, pathsOf(QUESTION, draft));
    expect(placed.get("difficulty")).toEqual(["Must be between 1 and 3."]);
    expect(placed.get("choices.0.text")).toEqual(["Missing."]);
  });

  it("places a game validator's refusal on the deepest field of its path", () => {
    const moves = field("moves", "list", {
      item: field("moves", "object", { fields: [field("name", "text"), field("effects", "json")] }),
    });
    const draft = draftOf([moves], { moves: [{ name: "Jab", effects: [] }] });
    const problem = { status: 422, code: "invalid_effect" as const, detail: "effect 2 (damage) is invalid", path: "moves[0].effects[1]", fields: { amount: ["Not a number."] } };
    const placed = fieldMessages(problem, pathsOf([moves], draft));
    expect(placed.get("moves.0.effects")).toEqual(["effect 2 (damage) is invalid", "amount: Not a number."]);
  });
});
