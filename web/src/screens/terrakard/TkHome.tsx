/**
 * TerraKard's home: claim the starting collection (once), your level's budgets, your
 * cards, and where to go next (decks, plans, the arena, reports, packs).
 */
import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { TkCardGrid } from "./TkCards";

export function useTkCollection() {
  return useResource(() => unwrap(api.GET("/terrakard/collection")));
}

export function TkHome() {
  const collection = useTkCollection();
  const claim = useAction();
  useLive(() => void collection.reload(), ["match.defended", "reward"]);
  const data = collection.data;
  return (
    <Screen title="TerraKard">
      <p class="note">
        Attack other players' defense plans with decks of 8 cards inspired by Wikipedia articles; defend with a plan of
        5 cards, a reserve and a posture.
      </p>
      {collection.loading && <Loading what="your TerraKard cards" />}
      <ProblemBox problem={collection.problem} />
      {data && !data.started && (
        <div class="callout">
          <p>You have no TerraKard cards yet. Every new player gets the same ten: 8 Common and 2 Uncommon.</p>
          <button
            type="button"
            disabled={claim.busy}
            onClick={() => void claim.run(async () => collection.set(await unwrap(api.POST("/terrakard/collection/start"))))}
          >
            Claim your starting collection
          </button>
          <ProblemBox problem={claim.problem} title="Not claimed:" />
        </div>
      )}
      {data?.started && (
        <>
          <p>
            Level <strong>{data.budget?.level}</strong>: an attack deck may cost up to <strong>{data.budget?.attack}</strong>,
            a defense plan up to <strong>{data.budget?.defense}</strong>.{" "}
            {data.activePlanId ? "Your active plan defends you." : "No active plan: the automatic plan defends you."}
          </p>
          <ul class="menu">
            <li><a href={href({ name: "tk_decks" })}>Attack decks</a></li>
            <li><a href={href({ name: "tk_plans" })}>Defense plans</a></li>
            <li><a href={href({ name: "tk_arena" })}>The arena: choose a target</a></li>
            <li><a href={href({ name: "tk_reports" })}>Defense reports</a></li>
            <li><a href={href({ name: "tk_packs" })}>Packs</a></li>
          </ul>
          <h2 id="tk-cards">Your cards ({data.cards?.length ?? 0})</h2>
          <TkCardGrid cards={data.cards ?? []} label="Your TerraKard cards" />
        </>
      )}
    </Screen>
  );
}
