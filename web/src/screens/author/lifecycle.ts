/**
 * The content lifecycle as the author screens offer it: Draft → In review → Approved →
 * Published → Retired, returning to Draft from review with a reason. The server decides
 * (it refuses your own approval, unready content, stale versions); this only chooses which
 * buttons to show, and never offers you an approval of your own submission.
 */

export const STATE_NAMES: Record<string, string> = {
  draft: "Draft",
  in_review: "In review",
  approved: "Approved",
  published: "Published",
  retired: "Retired",
};

export interface Move {
  to: string;
  label: string;
  needsReason: boolean;
}

/** The moves to offer; `yours`: you submitted it, so approving or returning it is another
 * Author's (the four-eyes rule: the server refuses it too, `own_submission`). */
export function movesFrom(state: string, yours = false): Move[] {
  switch (state) {
    case "draft":
      return [{ to: "in_review", label: "Submit for review", needsReason: false }];
    case "in_review":
      if (yours) return [];
      return [
        { to: "approved", label: "Approve", needsReason: false },
        { to: "draft", label: "Return to draft", needsReason: true },
      ];
    case "approved":
      return [{ to: "published", label: "Publish", needsReason: false }];
    case "published":
      return [{ to: "retired", label: "Retire", needsReason: false }];
    default:
      return [];
  }
}

/** Each game's kinds of content, as services/authoring/*_kinds.py define them. */
export const KINDS_BY_GAME: Record<string, string[]> = {
  quest: ["question", "ordering_question", "challenge", "event", "creature", "power_card", "campaign"],
  terrakard: ["card", "knowledge_question"],
  chronovore: ["monster", "event_card"],
};

export const GAME_NAMES: Record<string, string> = { quest: "Quest", terrakard: "TerraKard", chronovore: "Chronovore" };

/** Every kind once (the list's filter: a kind's name is the same in every game that has it). */
export const KINDS = [...new Set(Object.values(KINDS_BY_GAME).flat())];
