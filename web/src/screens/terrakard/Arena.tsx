/**
 * The arena: players you may attack (close to your level, not attacked by you in the
 * last 12 hours), each by pseudonym, level, trophies and whether the automatic plan
 * defends them. Attacking snapshots their plan and opens the attack's reconnaissance.
 */
import { useEffect, useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import { href, navigate } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { useTkDecks } from "./TkDecks";

export function Arena() {
  const arena = useResource(() => unwrap(api.GET("/terrakard/arena")));
  const decks = useTkDecks();
  const [deckId, setDeckId] = useState("");
  const [questions, setQuestions] = useState(true);
  const action = useAction();
  useLive(() => void arena.reload(), ["match"]);
  const legal = (decks.data ?? []).filter((d) => d.legal);
  useEffect(() => {
    if (!deckId && legal[0]?.id) setDeckId(legal[0].id);
  }, [legal, deckId]);

  const attack = (targetId: string) =>
    action.run(async () => {
      const started = await unwrap(api.POST("/terrakard/attacks", { body: { deckId, targetId, questions } }));
      navigate({ name: "tk_attack", id: started.id ?? "" });
    });

  const targets = arena.data?.items ?? [];
  return (
    <Screen title="The arena">
      {(arena.loading || decks.loading) && <Loading what="the arena" />}
      <ProblemBox problem={arena.problem ?? decks.problem} />
      {arena.data && <p>Your level: {arena.data.level}. Targets are within 2 levels of yours.</p>}
      {!decks.loading && legal.length === 0 && (
        <p class="callout">To attack you need a legal attack deck. <a href={href({ name: "tk_deck", id: null })}>Build one</a>.</p>
      )}
      {legal.length > 0 && (
        <>
          <label for="tk-attack-deck">Attack deck</label>
          <select id="tk-attack-deck" value={deckId} onChange={(e) => setDeckId(e.currentTarget.value)}>
            {legal.map((d) => <option key={d.id} value={d.id}>{d.name} (cost {d.cost} of {d.budget})</option>)}
          </select>
          <label class="choice">
            <input type="checkbox" checked={questions} onChange={(e) => setQuestions(e.currentTarget.checked)} />
            Knowledge questions on (turning them off gives up a major edge)
          </label>
        </>
      )}
      <ProblemBox problem={action.problem} title="The attack did not start:" />
      <h2 id="tk-targets">Targets ({targets.length})</h2>
      {arena.data && targets.length === 0 && <p>No one to attack right now. Come back later.</p>}
      <ul aria-labelledby="tk-targets" class="events">
        {targets.map((t) => (
          <li key={t.targetId}>
            <h3>{t.pseudonym}</h3>
            <p>Level {t.level} · {t.trophies} trophies · {t.automatic ? "defended by the automatic plan" : "defended by a saved plan"}</p>
            <button type="button" disabled={!deckId || action.busy} onClick={() => void attack(t.targetId ?? "")}>
              Attack {t.pseudonym}
            </button>
          </li>
        ))}
      </ul>
    </Screen>
  );
}
