/** Your cards, grouped by definition, with how many copies you own. */
import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";

export const KIND_NAMES: Record<string, string> = { creature: "Creature", power_card: "Power card" };

export function Collection() {
  const collection = useResource(() => unwrap(api.GET("/quest/collection")));
  useLive(() => void collection.reload(), ["RewardGranted", "reward", "cards"]);
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
            <table class="cards">
              <caption class="visually-hidden">Cards you own</caption>
              <thead>
                <tr><th scope="col">Card</th><th scope="col">Kind</th><th scope="col">Rarity</th><th scope="col">Affinity</th><th scope="col">Copies</th></tr>
              </thead>
              <tbody>
                {groups.map((g) => (
                  <tr key={g.definition?.id}>
                    <th scope="row">{g.definition?.name}{g.definition?.retired ? " (retired)" : ""}</th>
                    <td>{KIND_NAMES[g.definition?.kind ?? ""] ?? g.definition?.kind}</td>
                    <td>{g.definition?.rarity}</td>
                    <td>{g.definition?.affinity ?? "—"}</td>
                    <td>{g.count}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <p><a href={href({ name: "deck", id: null })}>Build a deck</a></p>
        </>
      )}
    </Screen>
  );
}
