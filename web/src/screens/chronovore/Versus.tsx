/**
 * Chronovore against another player. The lobby: your pseudonym (others invite you by it),
 * one of your legal decks, the matchmaking queue (join, stop waiting), an invitation by
 * pseudonym, and your invitations (accept or decline those sent to you, cancel yours).
 * Once paired, the same board as against the computer (MatchBoard), then the result.
 *
 * A pairing and an accepted invitation reach both players through push (`match.updated`);
 * invitations themselves are not pushed, so the lobby asks again every few seconds.
 */
import { useEffect, useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";
import { config } from "../../config";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { MatchBoard, sidesOf } from "./MatchBoard";

type Invitation = NonNullable<Answer<"listInvitations">["items"]>[number];

const STATUS_WORDS: Record<string, string> = {
  pending: "waiting for an answer",
  accepted: "accepted",
  declined: "declined",
  cancelled: "cancelled",
  expired: "expired",
};

function timeText(at: string | undefined): string {
  return at ? new Date(at).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) : "";
}

function PvpMatch({ id, onBack }: { id: string; onBack: () => void }) {
  const match = useResource(() => unwrap(api.GET("/chronovore/matches/{match_id}", { params: { path: { match_id: id } } })), [id]);
  if (!match.data) {
    return (
      <Screen title="Match against a player">
        {match.loading ? <Loading what="your match" /> : <ProblemBox problem={match.problem} />}
        {!match.loading && <button type="button" onClick={onBack}>Back to the lobby</button>}
      </Screen>
    );
  }
  return (
    <Screen title={`Match against ${sidesOf(match.data).them}`}>
      <MatchBoard view={match.data} onView={match.set} reload={match.reload} loadProblem={match.problem}>
        <p>
          <a href={href({ name: "cv_wallet" })}>Your Gold</a>{" "}
          <button type="button" onClick={onBack}>Back to the lobby</button>
        </p>
      </MatchBoard>
    </Screen>
  );
}

function InvitationItem({ invitation, deckId, busy, act }: {
  invitation: Invitation;
  deckId: string;
  busy: boolean;
  act: (change: "accept" | "decline" | "cancel", invitation: Invitation) => void;
}) {
  const other = invitation.sent ? invitation.to : invitation.from;
  const pending = invitation.status === "pending";
  return (
    <li>
      {invitation.sent ? `To ${other}` : `From ${other}`}: {STATUS_WORDS[invitation.status ?? ""] ?? invitation.status}
      {pending && `, until ${timeText(invitation.expiresAt)}`}.{" "}
      {pending && !invitation.sent && (
        <>
          <button type="button" disabled={busy || !deckId} onClick={() => act("accept", invitation)} aria-label={`Accept the invitation from ${other}`}>Accept</button>{" "}
          <button type="button" class="danger" disabled={busy} onClick={() => act("decline", invitation)} aria-label={`Decline the invitation from ${other}`}>Decline</button>
        </>
      )}
      {pending && invitation.sent && (
        <button type="button" class="danger" disabled={busy} onClick={() => act("cancel", invitation)} aria-label={`Cancel the invitation to ${other}`}>Cancel</button>
      )}
    </li>
  );
}

/** The invitations routes serve every game with matches against a player. */
const GAME = { params: { path: { game: "chronovore" as const } } };

export function Versus() {
  const queue = useResource(() => unwrap(api.GET("/chronovore/queue")));
  const invitations = useResource(() => unwrap(api.GET("/{game}/invitations", GAME)));
  const decks = useResource(() => unwrap(api.GET("/chronovore/decks")));
  const [matchId, setMatchId] = useState<string | null>(null);
  const [deckId, setDeckId] = useState("");
  const [to, setTo] = useState("");
  const [said, setSaid] = useState("");
  const action = useAction();
  const legal = (decks.data ?? []).filter((d) => d.legal);

  const refresh = () => {
    void queue.reload();
    void invitations.reload();
  };
  useLive(refresh, ["match"]);
  // Invitations are not pushed: while the lobby shows, ask again every few seconds.
  useEffect(() => {
    if (matchId) return;
    const timer = setInterval(refresh, config().pollSeconds * 1000);
    return () => clearInterval(timer);
  }, [matchId]);
  const paired = queue.data?.status === "matched" ? queue.data.matchId ?? null : null;
  useEffect(() => {
    if (paired) setMatchId(paired);
  }, [paired]);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);

  if (matchId) {
    return <PvpMatch key={matchId} id={matchId} onBack={() => { setMatchId(null); refresh(); }} />;
  }

  const join = () =>
    action.run(async () => {
      setSaid("");
      const joined = await unwrap(api.POST("/chronovore/queue", { body: { deckId } }));
      queue.set(joined);
      if (joined.status === "matched" && joined.matchId) setMatchId(joined.matchId);
    });
  const leave = () =>
    action.run(async () => {
      await unwrap(api.DELETE("/chronovore/queue"));
      setSaid("You left the queue.");
      await queue.reload();
    });
  const invite = () =>
    action.run(async () => {
      const sent = await unwrap(api.POST("/{game}/invitations", { ...GAME, body: { to: to.trim(), deckId } }));
      setSaid(`Invitation sent to ${sent.to}.`);
      setTo("");
      await invitations.reload();
    });
  const act = (change: "accept" | "decline" | "cancel", invitation: Invitation) =>
    void action.run(async () => {
      setSaid("");
      const path = { params: { path: { game: "chronovore" as const, invitation_id: invitation.id ?? "" } } };
      try {
        if (change === "accept") {
          const started = await unwrap(api.POST("/{game}/invitations/{invitation_id}/accept", { ...path, body: { deckId } }));
          setMatchId(started.id ?? null);
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
  const queued = queue.data?.status === "queued";
  return (
    <Screen title="Play another player">
      {(queue.loading || invitations.loading || decks.loading) && <Loading what="the lobby" />}
      <ProblemBox problem={queue.problem ?? invitations.problem ?? decks.problem} />
      {invitations.data?.you && (
        <p class="callout">
          Your pseudonym: <strong>{invitations.data.you}</strong>. Share it: other players invite you by it.
        </p>
      )}
      {!decks.loading && legal.length === 0 && (
        <p>You need a legal deck first. <a href={href({ name: "cv_deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <p>
          <label for="cv-versus-deck">Your deck</label>
          <select id="cv-versus-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name}</option>)}
          </select>
        </p>
      )}
      <ProblemBox problem={action.problem} title="Not done:" />
      {said && <p role="status">{said}</p>}

      <section aria-labelledby="cv-queue">
        <h2 id="cv-queue">Matchmaking</h2>
        {queued ? (
          <>
            <p role="status">Waiting for an opponent since {timeText(queue.data?.joinedAt ?? undefined)}: {queue.data?.waiting ?? 1} waiting, you included.</p>
            <button type="button" class="danger" disabled={action.busy} onClick={() => void leave()}>Stop waiting</button>
          </>
        ) : (
          <>
            <p>Play the next player who looks for a match.</p>
            <button type="button" disabled={action.busy || !deckId} onClick={() => void join()}>Find an opponent</button>
          </>
        )}
      </section>

      <section aria-labelledby="cv-invite">
        <h2 id="cv-invite">Invite a player</h2>
        <form onSubmit={(e) => { e.preventDefault(); void invite(); }}>
          <label for="cv-invite-to">Pseudonym to invite</label>
          <input id="cv-invite-to" required maxLength={32} autoComplete="off" placeholder="Keeper-3fa2c1" value={to} onInput={(e) => setTo(e.currentTarget.value)} />
          <button type="submit" disabled={action.busy || !deckId || !to.trim()}>Send invitation</button>
        </form>
        <p class="note">An invitation expires after 10 minutes.</p>
      </section>

      <section aria-labelledby="cv-received">
        <h2 id="cv-received">Invitations to you ({received.filter((i) => i.status === "pending").length} waiting)</h2>
        {received.length === 0 ? <p>None yet.</p> : (
          <ul aria-labelledby="cv-received" class="menu">
            {received.map((i) => <InvitationItem key={i.id} invitation={i} deckId={deckId} busy={action.busy} act={act} />)}
          </ul>
        )}
      </section>
      <section aria-labelledby="cv-sent">
        <h2 id="cv-sent">Invitations you sent</h2>
        {sent.length === 0 ? <p>None yet.</p> : (
          <ul aria-labelledby="cv-sent" class="menu">
            {sent.map((i) => <InvitationItem key={i.id} invitation={i} deckId={deckId} busy={action.busy} act={act} />)}
          </ul>
        )}
      </section>
    </Screen>
  );
}
