/** Your saved decks: legality and cost as the server assessed them. */
import { api, listed } from "../../api/client";
import { DECK_COST_LIMIT } from "../../lib/deckRules";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";

export function Decks() {
  const decks = useResource(() => listed(api.GET("/quest/decks")));
  return (
    <Screen title="Your decks">
      {decks.loading && <Loading what="your decks" />}
      <ProblemBox problem={decks.problem} />
      {decks.data && decks.data.length === 0 && <p>No decks yet.</p>}
      <ul class="menu">
        {(decks.data ?? []).map((d) => (
          <li key={d.id}>
            <a href={href({ name: "deck", id: d.id ?? null })}>{d.name}</a>: cost {d.cost} of {DECK_COST_LIMIT},{" "}
            {d.legal ? "✓ legal" : "✗ not legal"}
          </li>
        ))}
      </ul>
      <p><a href={href({ name: "deck", id: null })}>New deck</a></p>
    </Screen>
  );
}
