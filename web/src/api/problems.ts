/**
 * Problems (RFC 9457, application/problem+json) as the client shows them: the server's
 * stable `code` decides the words; the server's `detail` follows when there is one.
 */
import type { components } from "./schema";

/** Every code the server answers: the `code` enum of the API's one `Problem` schema. */
export type ServerCode = components["schemas"]["Problem"]["code"];
/** The client's own: an answer that is not a problem (`toProblem`), an error of its own. */
export type ProblemCode = ServerCode | "network_error" | "unexpected_answer" | "client_error";

/** The document's `Problem`, with only `status` and `code` sure to be there: an answer from
 * a proxy or a dropped connection is turned into one by the client. */
export interface Problem {
  type?: string;
  title?: string;
  status: number;
  code: ProblemCode;
  detail?: string;
  fields?: Record<string, unknown>;
  [member: string]: unknown;
}

export class ApiError extends Error {
  constructor(readonly problem: Problem) {
    super(problem.detail || problem.title || problem.code);
    this.name = "ApiError";
  }
  get code(): string {
    return this.problem.code;
  }
  get status(): number {
    return this.problem.status;
  }
}

/** Any answer that is not a problem (a proxy's HTML page, a dropped connection) as one. */
export function toProblem(body: unknown, status: number): Problem {
  if (body && typeof body === "object" && "code" in body) return body as Problem;
  if (status === 0) return { status, code: "network_error", detail: "The server did not answer." };
  return { status, code: "unexpected_answer", detail: `The server answered ${status}.` };
}

// Keyed by the schema's codes: a code the server no longer answers does not compile.
const EXPLANATIONS: Partial<Record<ProblemCode, string>> = {
  stale_version:
    "Someone (or another tab) changed this since you loaded it. Nothing was saved: reload to see the current version, then make your change again.",
  missing_token: "You are signed out. Sign in again.",
  invalid_token: "Your sign-in has expired or is not accepted. Sign in again.",
  account_locked: "This account is locked (its deletion is under way).",
  account_deleted: "This account was deleted.",
  author_role_required: "Only Authors can do this.",
  rate_limited: "Too many changes at once. Wait a moment and try again.",
  service_unavailable: "A part of Deckyard is not answering. Try again in a moment.",
  network_error: "The server did not answer. Check your connection and try again.",
  starter_already_chosen: "You have already chosen your starter.",
  deck_cost_exceeded: "The deck costs more than 10.",
  deck_composition: "A deck is three Creatures and two Power cards.",
  deck_size: "A deck has exactly five cards.",
  active_match_exists: "You already have a battle under way: finish or forfeit it first.",
  outside_event_area: "You are not inside the event's area.",
  reauthentication_required: "Deleting the account needs a recent sign-in: sign in again, then delete.",
  confirmation_required: "Type the confirmation sentence exactly.",
  not_ready: "It is not ready for this step yet; what is missing:",
};

/** One sentence for a person, then the server's own detail. */
export function explain(problem: Problem): string {
  const known = EXPLANATIONS[problem.code];
  const detail = problem.detail && problem.detail !== known ? problem.detail : "";
  if (known) return detail ? `${known} (${detail})` : known;
  return detail || problem.title || problem.code.replace(/_/g, " ");
}

/**
 * What a refusal lists as missing or wrong (readiness checks, deck rules, field errors),
 * one line each, so a form can show them in place.
 */
export function problemItems(problem: Problem): string[] {
  const items: string[] = [];
  const details = (problem.details ?? {}) as Record<string, unknown>;
  for (const source of [details.problems, details.missing, problem.problems, problem.missing]) {
    if (Array.isArray(source))
      for (const entry of source)
        items.push(
          typeof entry === "string"
            ? entry
            : String((entry as { message?: string; code?: string }).message ?? JSON.stringify(entry)),
        );
  }
  if (problem.fields)
    for (const [field, messages] of Object.entries(problem.fields))
      items.push(`${field}: ${Array.isArray(messages) ? messages.join(" ") : JSON.stringify(messages)}`);
  // Extension members come at the top level (gateway/problems.py); older answers nested them.
  for (const key of ["dependents", "challenges", "events"]) {
    const list = problem[key] ?? details[key];
    if (Array.isArray(list) && list.length) items.push(`${key}: ${list.join(", ")}`);
  }
  return items;
}
