/** Your cards as cards, one per definition, with how many copies you own. */
import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { questFace, useCatalogue } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useResource } from "../../ui/resource";

export const KIND_NAMES: Record<string, string> = { creature: "Creature", power_card: "Power card" };

/** "1 copy", "3 copies": the same words in every game's collection. */
export function copiesText(count: number): string {
  return count === 1 ? "1 copy" : `${count} copies`;
}

export function Collection() {
  const collection = useResource(() => unwrap(api.GET("/quest/collection")));
  useLive(() => void collection.reload(), ["RewardGranted", "reward", "cards"]);
  const catalogue = useCatalogue("quest");
  const groups = collection.data?.definitions ?? [];
  return (
    <Screen title="Your collection">
      {collection.loading && <Loading what="your collection" />}
      <ProblemBox problem={collection.problem} />
      {collection.data && (
        <>
          <p>
            {collection.data.totalCopies ?? 0} cards
            {collection.data.starterAffinity ? `, starter affinity ${collection.data.starterAffinity}` : ""}.
          </p>
          {groups.length === 0 ? (
            <p>
              No cards yet. <a href={href({ name: "starter" })}>Choose your starter</a>.
            </p>
          ) : (
            <CardGrid label="Cards you own">
              {groups.map((g) => (
                <li key={g.definition?.id}>
                  <GameCard face={questFace(g.definition ?? {}, catalogue?.get(g.definition?.id ?? ""))}>
                    <p>{copiesText(g.count ?? 0)}</p>
                  </GameCard>
                </li>
              ))}
            </CardGrid>
          )}
          <p><a href={href({ name: "deck", id: null })}>Build a deck</a></p>
        </>
      )}
    </Screen>
  );
}
