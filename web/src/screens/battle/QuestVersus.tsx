/**
 * Quest against another player, asynchronously (docs/quest-pvp.md): your pseudonym and
 * invitations (the lobby every game shares, with one of your legal decks), your matches
 * against players (whose decision each waits for, until when) and your win/loss record.
 * An accepted invitation opens its match; every match opens from the list.
 */
import { useEffect, useState } from "preact/hooks";

import { allPages, api, listed, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";
import { href, navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { InvitationsLobby, untilText } from "../../ui/InvitationsLobby";
import { useResource } from "../../ui/resource";

type Summary = NonNullable<Answer<"listQuestPvpMatches">["items"]>[number];
type Record = NonNullable<Answer<"listQuestPvpMatches">["record"]>;

const OUTCOMES: { [outcome: string]: string } = { victory: "you won", defeat: "you lost", forfeit: "you forfeited" };

/** One match of the list in words: against whom, and whose move or how it ended. */
export function matchText(match: Summary, now: Date = new Date()): string {
  const against = `Against ${match.opponentName ?? "a player"}`;
  if (match.status === "finished") return `${against}: ${OUTCOMES[match.outcome ?? ""] ?? "finished"}.`;
  const until = match.deadline ? ` by ${untilText(match.deadline, now)}` : "";
  return match.yourTurn ? `${against}: your move${until}.` : `${against}: their move${until}.`;
}

/** Active matches first, each part as it came (newest first): the list comes newest first
 * whatever the status, a page at a time, so that a match finishing between two pages
 * neither moves nor repeats; the screen puts what waits to be played on top. */
export function activeFirst<T extends { status?: string }>(items: T[]): T[] {
  return [...items.filter((m) => m.status === "active"), ...items.filter((m) => m.status !== "active")];
}

const PAGE = 100; // the most a page may hold

/** Every match of yours (the screen counts the active ones) and your record, page after page. */
async function yourMatches() {
  const first = await unwrap(api.GET("/quest/pvp-matches", { params: { query: { limit: PAGE } } }));
  const after = first.next;
  const later = after === null ? [] : await allPages((cursor) => api.GET("/quest/pvp-matches", { params: { query: { cursor: cursor ?? after, limit: PAGE } } }));
  return { ...first, items: activeFirst([...first.items, ...later]) };
}

/** The record in words; results beyond 3 a day against the same player do not count. */
export function recordText(record: Record | undefined): string {
  const wins = record?.wins ?? 0;
  const losses = record?.losses ?? 0;
  const uncounted = record?.uncounted ? ` (${record.uncounted} more not counted: over 3 a day against the same player)` : "";
  return `Your record: ${wins} ${wins === 1 ? "win" : "wins"}, ${losses} ${losses === 1 ? "loss" : "losses"}${uncounted}.`;
}

export function QuestVersus() {
  const decks = useResource(() => listed(api.GET("/quest/decks")));
  const matches = useResource(yourMatches);
  const [deckId, setDeckId] = useState("");
  const legal = (decks.data ?? []).filter((d) => d.legal);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);

  const items = matches.data?.items ?? [];
  const active = items.filter((m) => m.status === "active");
  return (
    <Screen title="Play another player">
      {(decks.loading || matches.loading) && <Loading what="the lobby" />}
      <ProblemBox problem={decks.problem ?? matches.problem} />
      {!decks.loading && legal.length === 0 && (
        <p>You need a legal deck first. <a href={href({ name: "deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <p>
          <label for="quest-versus-deck">Your deck</label>
          <select id="quest-versus-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name} (cost {d.cost})</option>)}
          </select>
        </p>
      )}
      <p class="note">Each decision has 24 hours; missing one loses the match. Matches against players earn no points or cards, only your record.</p>

      <section aria-labelledby="quest-matches">
        <h2 id="quest-matches">Your matches ({active.length} of {matches.data?.activeLimit ?? 10} active)</h2>
        {matches.data && <p>{recordText(matches.data.record)}</p>}
        {items.length === 0 ? <p>None yet.</p> : (
          <ul aria-labelledby="quest-matches" class="menu">
            {items.map((m) => (
              <li key={m.id}>
                <a href={href({ name: "q_match", id: m.id ?? "" })}>{matchText(m)}</a>
              </li>
            ))}
          </ul>
        )}
      </section>

      <InvitationsLobby
        game="quest"
        deckId={deckId}
        expiry="24 hours"
        liveChallenge
        onAccepted={(id) => navigate({ name: "q_match", id })}
        onChange={() => void matches.reload()}
        matchHref={(id) => href({ name: "q_match", id })}
      />
    </Screen>
  );
}
