/** The starter choice: one affinity, once (rulebook "Starter grant"). */
import { useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { questFace, useCatalogue } from "../../ui/faces";
import { EmblemMark } from "../../ui/emblems";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";

/** Offered to new players (Spirit and Mystic are not: the server refuses them). */
export const STARTER_AFFINITIES = [
  { name: "Wit", blurb: "Clever Creatures that outthink their opponent." },
  { name: "Grit", blurb: "Tough Creatures that take a hit and hit back." },
  { name: "Spark", blurb: "Quick Creatures full of energy." },
] as const;

/**
 * Your starter, or null before you choose one. The collection says first whether there is
 * one (its starter affinity), so a new player's page asks for nothing that is not there
 * (a 404 is an error in the browser's console).
 */
export async function yourStarter() {
  const collection = await unwrap(api.GET("/quest/collection"));
  if (!collection.starterAffinity) return null;
  return unwrap(api.GET("/quest/starter"));
}

export function Starter() {
  const starter = useResource(yourStarter);
  const catalogue = useCatalogue("quest");
  const [choice, setChoice] = useState<string>("");
  const action = useAction();

  if (starter.loading) return <Screen title="Choose your starter"><Loading what="your starter" /></Screen>;
  if (starter.data) {
    return (
      <Screen title="Your starter">
        <p>
          You chose <strong>{starter.data.affinity}</strong>. These cards are now yours:
        </p>
        <CardGrid label="Starter cards">
          {(starter.data.cards ?? []).map((card) => (
            <li key={card.id}>
              <GameCard face={questFace(card, catalogue?.get(card.definitionId ?? ""))} />
            </li>
          ))}
        </CardGrid>
        <p><a href={href({ name: "collection" })}>See your collection</a></p>
      </Screen>
    );
  }
  return (
    <Screen title="Choose your starter">
      <ProblemBox problem={starter.problem} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void action.run(async () => {
            starter.set(await unwrap(api.POST("/quest/starter", { body: { affinity: choice } })));
          });
        }}
      >
        <fieldset>
          <legend>Pick one affinity: three of its Creatures and two Power cards are yours. You choose once.</legend>
          {STARTER_AFFINITIES.map((a) => (
            <label key={a.name} class="choice card-choice">
              <input
                type="radio"
                name="affinity"
                value={a.name}
                checked={choice === a.name}
                onChange={() => setChoice(a.name)}
              />
              <EmblemMark of={a.name} />
              <strong>{a.name}</strong> <span>{a.blurb}</span>
            </label>
          ))}
        </fieldset>
        <button type="submit" disabled={!choice || action.busy}>
          {choice ? `Choose ${choice}` : "Choose an affinity"}
        </button>
        <ProblemBox problem={action.problem} />
      </form>
    </Screen>
  );
}
