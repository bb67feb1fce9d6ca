/**
 * The arena: players you may attack (close to your level, not attacked by you in the
 * last 12 hours), each by pseudonym, level, trophies and whether the automatic plan
 * defends them; a demo install's demo defenders are named as such. An empty offer says
 * why and when that changes (the server's reason). Attacking snapshots their plan and
 * opens the attack's reconnaissance.
 */
import { useEffect, useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";
import { href, navigate } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { useTkDecks } from "./TkDecks";

function when(at: string | null | undefined): string {
  return at ? new Date(at).toLocaleString() : "";
}

type EmptyArena = NonNullable<Answer<"getTerrakardArena">["empty"]>;

/** Why no one is offered, in the server's words, and from when that changes. */
export function emptyArenaText(empty: EmptyArena | null | undefined): string {
  if (!empty?.message) return "No one to attack right now. Come back later.";
  return empty.until ? `${empty.message} The first of them can be attacked from ${when(empty.until)}.` : empty.message;
}

export function Arena() {
  const arena = useResource(() => unwrap(api.GET("/terrakard/arena")));
  const profile = useResource(() => unwrap(api.GET("/terrakard/profile")));
  const decks = useTkDecks();
  const [deckId, setDeckId] = useState("");
  const action = useAction();
  const setting = useAction();
  // The checkbox shows the choice at once; the server's answer (the profile) then confirms it.
  const [questions, setQuestions] = useState<boolean | null>(null);
  useLive(() => {
    void arena.reload();
    void profile.reload();
  }, ["match"]);
  const legal = (decks.data ?? []).filter((d) => d.legal);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);

  const attack = (targetId: string) =>
    action.run(async () => {
      // No `questions` here: the player's stored setting decides (PUT /terrakard/settings).
      const started = await unwrap(api.POST("/terrakard/attacks", { body: { deckId, targetId } }));
      navigate({ name: "tk_attack", id: started.id ?? "" });
    });

  const tutorial = () =>
    action.run(async () => {
      const started = await unwrap(api.POST("/terrakard/tutorial", { body: { deckId } }));
      navigate({ name: "tk_attack", id: started.id ?? "" });
    });

  const changeQuestions = (wanted: boolean) => {
    setQuestions(wanted);
    void setting.run(async () => {
      try {
        await unwrap(api.PUT("/terrakard/settings", { body: { questions: wanted } }));
      } finally {
        await profile.reload(); // what the server kept, refused or not
        setQuestions(null);
      }
    });
  };

  const targets = arena.data?.items ?? [];
  const me = profile.data;
  // Why the Attack buttons cannot be used now, in words (the server checks again).
  const cannotAttack = !deckId
    ? "To attack you need a legal attack deck."
    : me && !me.tutorialFinished
      ? "Play the tutorial first: then you can attack players."
      : me && (me.tickets ?? 0) < 1
        ? `You have no attack ticket left${me.nextTicketAt ? `: the next comes at ${when(me.nextTicketAt)}` : ""}.`
        : "";
  return (
    <Screen title="The arena">
      {(arena.loading || decks.loading) && <Loading what="the arena" />}
      <ProblemBox problem={arena.problem ?? decks.problem} />
      {arena.data && <p>Your level: {arena.data.level}. Targets are within 2 levels of yours.</p>}
      <ProblemBox problem={profile.problem} />
      {me && (
        <p>
          Attack tickets: <strong>{me.tickets} of {me.maxTickets}</strong>
          {me.nextTicketAt ? ` (the next at ${when(me.nextTicketAt)})` : ""} · Trophies: {me.trophies}
          {me.protectedUntil ? ` · As a new player you cannot be attacked until ${when(me.protectedUntil)}.` : ""}
          {me.shieldUntil ? ` · Your shield protects you until ${when(me.shieldUntil)} (attacking lifts it).` : ""}
        </p>
      )}
      {!decks.loading && legal.length === 0 && (
        <p class="callout">To attack you need a legal attack deck. <a href={href({ name: "tk_deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <>
          <label for="tk-attack-deck">Attack deck</label>
          <select id="tk-attack-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name} (cost {d.cost} of {d.budget})</option>)}
          </select>
        </>
      )}
      {me && (
        <>
          <label class="choice">
            <input
              type="checkbox"
              checked={questions ?? me.questions ?? true}
              disabled={setting.busy}
              onChange={(e) => changeQuestions(e.currentTarget.checked)}
            />
            Knowledge questions in my attacks (a setting, from the next attack; turning them off gives up a major edge)
          </label>
          <ProblemBox problem={setting.problem} title="The setting did not change:" />
        </>
      )}
      {me && !me.tutorialFinished && legal.length > 0 && (
        <section aria-labelledby="tk-tutorial" class="callout">
          <h2 id="tk-tutorial">First, the tutorial</h2>
          <p>A first attack with the deck above against the training plan: no ticket, no question. Once it is over you can attack players and be attacked.</p>
          <button type="button" disabled={!deckId || action.busy} onClick={() => void tutorial()}>Play the tutorial</button>
        </section>
      )}
      <ProblemBox problem={action.problem} title="The attack did not start:" />
      {/* The count once it is known: never "Targets (0)" while the arena loads. */}
      <h2 id="tk-targets">{arena.data ? `Targets (${targets.length})` : "Targets"}</h2>
      {arena.data && targets.length === 0 && <p class="callout" role="status">{emptyArenaText(arena.data.empty)}</p>}
      {targets.length > 0 && cannotAttack && <p class="note" id="tk-cannot-attack">{cannotAttack}</p>}
      <ul aria-labelledby="tk-targets" class="events">
        {targets.map((t) => (
          <li key={t.targetId}>
            <h3>{t.pseudonym}</h3>
            <p>Level {t.level} · {t.trophies} trophies · {t.automatic ? "defended by the automatic plan" : "defended by a saved plan"}</p>
            {t.demo && <p class="note">A demo defender, not a player: it is here so that there is always someone to attack on a demo install.</p>}
            <button type="button" disabled={!!cannotAttack || action.busy} onClick={() => void attack(t.targetId ?? "")}
              aria-describedby={cannotAttack ? "tk-cannot-attack" : undefined}>
              Attack {t.pseudonym}
            </button>
          </li>
        ))}
      </ul>
    </Screen>
  );
}
