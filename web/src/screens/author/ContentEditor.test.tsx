import { cleanup, fireEvent, render, screen, waitFor } from "@testing-library/preact";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

const text = (name: string, label: string, more = {}) => ({ name, label, type: "text", required: false, nullable: false, private: false, ...more });
const FORMS = [
  {
    game: "quest",
    kind: "question",
    fields: [text("prompt", "Prompt", { required: true, multiline: true, maxLength: 2000 }), { ...text("difficulty", "Difficulty"), type: "integer", nullable: true, min: 1, max: 3 }],
  },
  {
    game: "quest",
    kind: "event",
    fields: [text("name", "Name", { required: true }), { ...text("radiusM", "Radius (metres)", { required: true }), type: "integer", min: 5, max: 500 }],
  },
  {
    game: "quest",
    kind: "campaign",
    fields: [
      { ...text("location", "Location", { required: true }), type: "object", fields: [{ ...text("lat", "Latitude"), type: "number" }] },
      { ...text("eventIds", "Event ids"), type: "list", maxItems: 2, item: { ...text("eventIds", "Event id"), type: "id" } },
    ],
  },
];
const posted: unknown[] = [];
let content: Record<string, unknown> = {};
let refusal: unknown = null;

vi.mock("../../api/client", () => ({
  api: {
    GET: vi.fn(async (path: string) => {
      const data = path === "/authoring/forms" ? { items: FORMS, next: null } : path.endsWith("/audit") ? { items: [], next: null } : content;
      return { data, response: new Response(null, { status: 200 }) };
    }),
    POST: vi.fn(async (_path: string, init: { body: unknown }) => {
      posted.push(init.body);
      if (refusal) return { error: refusal, response: new Response(null, { status: 422 }) };
      return { data: { id: "c1" }, response: new Response(null, { status: 201 }) };
    }),
  },
  unwrap: async <T,>(call: Promise<{ data?: T; error?: unknown }>) => {
    const answer = await call;
    if (answer.error) {
      const { ApiError } = await import("../../api/problems");
      throw new ApiError(answer.error as never);
    }
    return answer.data as T;
  },
}));
vi.mock("../../auth/session", () => ({ session: () => ({ sub: "dev|alice" }) }));
vi.mock("../../lib/router", () => ({ navigate: vi.fn(), href: () => "#" }));

const { ContentEditor } = await import("./ContentEditor");

describe("the content editor", () => {
  beforeEach(() => {
    posted.length = 0;
    refusal = null;
  });
  afterEach(cleanup);

  it("shows the chosen kind's form and sends what its fields hold", async () => {
    render(<ContentEditor id={null} />);
    fireEvent.change(await screen.findByLabelText("Kind"), { target: { value: "event" } });
    const radius = await screen.findByLabelText("Radius (metres) (required)");
    expect(screen.queryByLabelText("Prompt (required)")).toBeNull();
    fireEvent.input(screen.getByLabelText("Name (required)"), { target: { value: "Walk" } });
    fireEvent.input(radius, { target: { value: "1000" } });
    refusal = { status: 422, code: "invalid_content", detail: "the event body is invalid", fields: { radiusM: ["Must be at most 500."] } };
    fireEvent.click(screen.getByRole("button", { name: "Create draft" }));
    await waitFor(() => expect(radius.getAttribute("aria-invalid")).toBe("true"));
    expect(posted[0]).toEqual({ kind: "event", game: "quest", body: { name: "Walk", radiusM: 1000 }, replaces: null });
    const described = (radius.getAttribute("aria-describedby") ?? "").split(" ").map((id) => document.getElementById(id)?.textContent);
    expect(described).toEqual(["From 5 to 500.", "Must be at most 500."]);
  });

  it("starts another kind's form from its own defaults, nested parts too", async () => {
    render(<ContentEditor id={null} />);
    fireEvent.input(await screen.findByLabelText("Prompt (required)"), { target: { value: "Red?" } });
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "campaign" } });
    expect(await screen.findByRole("group", { name: "Location (required)" })).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Add an event id" }));
    fireEvent.click(screen.getByRole("button", { name: "Add an event id" }));
    expect(screen.getByLabelText("Event id 2")).toBeTruthy();
    const add = screen.getByRole("button", { name: "Add an event id" }) as HTMLButtonElement;
    expect(add.disabled).toBe(true);
    expect(screen.getByText("At most 2: remove one to add another.")).toBeTruthy();
    fireEvent.change(screen.getByLabelText("Kind"), { target: { value: "question" } });
    expect(((await screen.findByLabelText("Prompt (required)")) as HTMLTextAreaElement).value).toBe("");
  });

  it("offers no Approve on your own submission, and says why", async () => {
    content = { id: "c1", game: "quest", kind: "question", state: "in_review", version: 2, submittedBy: "dev|alice", body: { prompt: "Red?" } };
    render(<ContentEditor id="c1" />);
    await screen.findByText(/^You submitted this for review/);
    expect(screen.queryByRole("button", { name: "Approve" })).toBeNull();
    expect((screen.getByLabelText("Prompt (required)") as HTMLTextAreaElement).disabled).toBe(true);
  });

  it("offers Approve on another Author's submission", async () => {
    content = { id: "c1", game: "quest", kind: "question", state: "in_review", version: 2, submittedBy: "dev|bob", body: { prompt: "Red?" } };
    render(<ContentEditor id="c1" />);
    expect(await screen.findByRole("button", { name: "Approve" })).toBeTruthy();
  });
});
