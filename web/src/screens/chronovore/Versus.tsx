/**
 * Chronovore against another player. The lobby: your pseudonym (others invite you by it),
 * one of your legal decks, the matchmaking queue (join, stop waiting), an invitation by
 * pseudonym, and your invitations (accept or decline those sent to you, cancel yours).
 * Once paired, the same board as against the computer (MatchBoard), then the result.
 *
 * A pairing and an accepted invitation reach both players through push (`match.updated`);
 * the invitations part is the lobby every game shares (ui/InvitationsLobby).
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { InvitationsLobby } from "../../ui/InvitationsLobby";
import { useAction, useResource } from "../../ui/resource";
import { MatchBoard, sidesOf } from "./MatchBoard";

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

export function Versus() {
  const queue = useResource(() => unwrap(api.GET("/chronovore/queue")));
  const decks = useResource(() => listed(api.GET("/chronovore/decks")));
  const [matchId, setMatchId] = useState<string | null>(null);
  const [deckId, setDeckId] = useState("");
  const [said, setSaid] = useState("");
  const action = useAction();
  const legal = (decks.data ?? []).filter((d) => d.legal);

  // The lobby below reloads on push and every few seconds; the queue goes with it.
  const refresh = () => void queue.reload();
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
  const queued = queue.data?.status === "queued";
  return (
    <Screen title="Play another player">
      {(queue.loading || decks.loading) && <Loading what="the lobby" />}
      <ProblemBox problem={queue.problem ?? decks.problem} />
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

      <InvitationsLobby game="chronovore" deckId={deckId} expiry="10 minutes" onAccepted={setMatchId} onChange={refresh} />
    </Screen>
  );
}
