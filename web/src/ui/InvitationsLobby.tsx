/**
 * Invitations between players, for every game that has them (`/{game}/invitations`):
 * your pseudonym (others invite you by it), an invitation by pseudonym with the deck the
 * screen chose, and your invitations (accept or decline those sent to you, cancel yours).
 * Chronovore's and Quest's Versus screens both show it; each keeps its own deck choice
 * and decides what an accepted invitation opens (`onAccepted` with the match id).
 *
 * Changes reach the lobby through push (`invitation.updated`, `match.*`); while the lobby
 * shows it also asks again every few seconds, in case a message was missed.
 */
import { useEffect, useState } from "preact/hooks";

import { api, unwrap } from "../api/client";
import type { Answer } from "../api/types";
import { config } from "../config";
import { useLive } from "../stream/live";
import { Loading, ProblemBox } from "./components";
import { useAction, useResource } from "./resource";

export type InvitationGame = "chronovore" | "quest";
export type Invitation = NonNullable<Answer<"listInvitations">["items"]>[number];
type Change = "accept" | "decline" | "cancel";

/** The newest invitations the lobby shows, sent and received (the list's first page). */
const SHOWN_INVITATIONS = 20;

const STATUS_WORDS: Record<string, string> = {
  pending: "waiting for an answer",
  accepted: "accepted",
  declined: "declined",
  cancelled: "cancelled",
  expired: "expired",
};

/** When a pending invitation expires: the time, with the day when it is not today. */
export function untilText(at: string | null | undefined, now: Date = new Date()): string {
  if (!at) return "";
  const when = new Date(at);
  const time = when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
  return when.toDateString() === now.toDateString() ? time : `${when.toLocaleDateString([], { day: "numeric", month: "short" })} ${time}`;
}

/** One invitation in words: who, what became of it, until when it may be answered. */
export function invitationText(invitation: Invitation, now: Date = new Date()): string {
  const kind = invitation.mode === "live" ? "Live challenge " : "";
  const other = invitation.sent ? `${kind}to ${invitation.to}` : `${kind}from ${invitation.from}`;
  const status = STATUS_WORDS[invitation.status ?? ""] ?? invitation.status ?? "";
  const until = invitation.status === "pending" && invitation.expiresAt ? `, until ${untilText(invitation.expiresAt, now)}` : "";
  return `${other.charAt(0).toUpperCase()}${other.slice(1)}: ${status}${until}.`;
}

function InvitationItem({ invitation, deckId, busy, act, matchHref }: {
  invitation: Invitation;
  deckId: string;
  busy: boolean;
  act: (change: Change, invitation: Invitation) => void;
  matchHref?: (matchId: string) => string;
}) {
  const other = invitation.sent ? invitation.to : invitation.from;
  const pending = invitation.status === "pending";
  return (
    <li>
      {invitationText(invitation)}{" "}
      {pending && !invitation.sent && (
        <>
          <button type="button" disabled={busy || !deckId} onClick={() => act("accept", invitation)} aria-label={`Accept the invitation from ${other}`}>Accept</button>{" "}
          <button type="button" class="danger" disabled={busy} onClick={() => act("decline", invitation)} aria-label={`Decline the invitation from ${other}`}>Decline</button>
        </>
      )}
      {pending && invitation.sent && (
        <button type="button" class="danger" disabled={busy} onClick={() => act("cancel", invitation)} aria-label={`Cancel the invitation to ${other}`}>Cancel</button>
      )}
      {invitation.status === "accepted" && invitation.matchId && matchHref && (
        <a href={matchHref(invitation.matchId)}>Open the match against {other}</a>
      )}
    </li>
  );
}

export function InvitationsLobby({ game, deckId, expiry, onAccepted, onChange, matchHref, liveChallenge }: {
  game: InvitationGame;
  /** The deck to invite or accept with ("" while there is none) */
  deckId: string;
  /** How long an invitation lasts, in words ("10 minutes", "24 hours") */
  expiry: string;
  onAccepted: (matchId: string) => void;
  /** Anything changed (pushed or polled): the screen may reload what it shows besides */
  onChange?: () => void;
  /** Where an accepted invitation's match opens (none: the screen opens it itself) */
  matchHref?: (matchId: string) => string;
  /** Quest: an invitation may be a live challenge instead (2 minutes, a live match) */
  liveChallenge?: boolean;
}) {
  const GAME = { params: { path: { game } } };
  // The newest page only: older invitations have long been answered or expired.
  const invitations = useResource(
    () => unwrap(api.GET("/{game}/invitations", { params: { ...GAME.params, query: { limit: SHOWN_INVITATIONS } } })),
    [game],
  );
  const [to, setTo] = useState("");
  const [live, setLive] = useState(false);
  const [said, setSaid] = useState("");
  const action = useAction();

  const refresh = () => {
    void invitations.reload();
    onChange?.();
  };
  useLive(refresh, ["invitation", "match"]);
  useEffect(() => {
    const timer = setInterval(refresh, config().pollSeconds * 1000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [game]);

  const invite = () =>
    action.run(async () => {
      setSaid("");
      const sent = await unwrap(api.POST("/{game}/invitations", { ...GAME, body: { to: to.trim(), deckId, mode: live ? "live" : null } }));
      setSaid(`${live ? "Live challenge" : "Invitation"} sent to ${sent.to}.`);
      setTo("");
      await invitations.reload();
    });
  const act = (change: Change, invitation: Invitation) =>
    void action.run(async () => {
      setSaid("");
      const path = { params: { path: { game, invitation_id: invitation.id ?? "" } } };
      try {
        if (change === "accept") {
          const started = await unwrap(api.POST("/{game}/invitations/{invitation_id}/accept", { ...path, body: { deckId } }));
          if (started.id) onAccepted(started.id);
        } else if (change === "decline") {
          await unwrap(api.POST("/{game}/invitations/{invitation_id}/decline", path));
          setSaid(`You declined the invitation from ${invitation.from}.`);
        } else {
          await unwrap(api.DELETE("/{game}/invitations/{invitation_id}", path));
          setSaid(`You cancelled the invitation to ${invitation.to}.`);
        }
      } finally {
        // Refused too: the other player may have cancelled, or time expired it, meanwhile.
        void invitations.reload();
      }
    });

  const items = invitations.data?.items ?? [];
  const received = items.filter((i) => !i.sent);
  const sent = items.filter((i) => i.sent);
  const id = (what: string) => `${game}-${what}`;
  return (
    <>
      {invitations.loading && <Loading what="your invitations" />}
      <ProblemBox problem={invitations.problem} />
      {invitations.data?.you && (
        <p class="callout">
          Your pseudonym: <strong>{invitations.data.you}</strong>. Share it: other players invite you by it.
        </p>
      )}
      <ProblemBox problem={action.problem} title="Not done:" />
      {said && <p role="status">{said}</p>}

      <section aria-labelledby={id("invite")}>
        <h2 id={id("invite")}>Invite a player</h2>
        <form onSubmit={(e) => { e.preventDefault(); void invite(); }}>
          <label for={id("invite-to")}>Pseudonym to invite</label>
          <input id={id("invite-to")} required maxLength={32} autoComplete="off" placeholder="Keeper-3fa2c1" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          {liveChallenge && (
            <label>
              <input type="checkbox" checked={live} onChange={(e) => setLive(e.currentTarget.checked)} /> Live challenge (60-second turns)
            </label>
          )}
          <button type="submit" disabled={action.busy || !deckId || !to.trim()}>Send invitation</button>
        </form>
        <p class="note">An invitation expires after {expiry}{liveChallenge ? "; a live challenge after 2 minutes" : ""}.</p>
      </section>

      <section aria-labelledby={id("received")}>
        <h2 id={id("received")}>Invitations to you ({received.filter((i) => i.status === "pending").length} waiting)</h2>
        {received.length === 0 ? <p>None yet.</p> : (
          <ul aria-labelledby={id("received")} class="menu">
            {received.map((i) => <InvitationItem key={i.id} invitation={i} deckId={deckId} busy={action.busy} act={act} matchHref={matchHref} />)}
          </ul>
        )}
      </section>
      <section aria-labelledby={id("sent")}>
        <h2 id={id("sent")}>Invitations you sent</h2>
        {sent.length === 0 ? <p>None yet.</p> : (
          <ul aria-labelledby={id("sent")} class="menu">
            {sent.map((i) => <InvitationItem key={i.id} invitation={i} deckId={deckId} busy={action.busy} act={act} matchHref={matchHref} />)}
          </ul>
        )}
      </section>
    </>
  );
}
