/**
 * Chronovore's shredding and crafting in Card Fragments (rules/chronovore.txt, "Shredding
 * and crafting"): what each rarity and finish pays and costs (public: GET /crafting), your
 * balance, your loose copies (in no saved deck) to shred, each button saying what it pays,
 * and any card of the library to craft in Plain or Golden, each button saying what it
 * costs. Diamond copies are neither. The server decides (the weakened window, the copy
 * limit, the balance); its refusals are shown as it words them. Each change carries an
 * Idempotency-Key, so a retried click is applied once.
 */
import { useMemo, useState } from "preact/hooks";

import { api, idempotencyKey, listed, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { chronovoreFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { useWallet } from "../economy/Packs";
import { type OwnedCard, useOwned } from "./Decks";
import { faceOf } from "./Library";
import { RARITIES, title } from "./describe";

type Prices = Answer<"getChronovoreCraftingPrices">;
type Price = NonNullable<Prices["prices"]>[number];
type Made = Answer<"shredCopy">;

const FINISHES = ["plain", "golden"] as const; // Diamond copies are neither shredded nor crafted
const FRAGMENTS = "fragments";
const SHOWN = 12; // each list shows this many matches at once: narrow the search for more

export function priceOf(prices: Prices | null, rarity: string, finish: string): Price | undefined {
  return (prices?.prices ?? []).find((p) => p.rarity === rarity && p.finish === finish);
}

/** What a shred or a craft did, in one sentence. */
export function madeText(made: Made): string {
  const finish = title(made.finish ?? "");
  if (made.action === "shred") {
    const why = made.weakened ? " (the card was weakened lately: its full crafting cost)" : "";
    return `You shredded a ${finish} ${made.name}: +${made.fragments} Card Fragments${why}. Balance: ${made.entry?.balanceAfter ?? "?"}.`;
  }
  return `You crafted a ${finish} ${made.name} for ${made.fragments} Card Fragments. Balance: ${made.entry?.balanceAfter ?? "?"}.`;
}

function PriceTable({ prices }: { prices: Prices }) {
  const rows = prices.prices ?? [];
  return (
    <table class="cards stacked">
      <caption>Card Fragments per copy</caption>
      <thead>
        <tr>
          <th scope="col">Copy</th>
          <th scope="col">Shred</th>
          <th scope="col"><abbr title={`Shred within ${prices.weakenedDays} days of a weakening`}>Shred, weakened</abbr></th>
          <th scope="col">Craft</th>
          <th scope="col">Limit</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((p) => (
          <tr key={`${p.rarity}-${p.finish}`}>
            <th scope="row">{title(p.rarity ?? "")} {title(p.finish ?? "")}</th>
            <td data-label="Shred">{p.shred}</td>
            <td data-label={`Shred within ${prices.weakenedDays} days of a weakening`}>{p.shredWeakened}</td>
            <td data-label="Craft">{p.craft}</td>
            <td data-label="Copy limit">{p.copyLimit}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Crafting() {
  const prices = useResource(() => unwrap(api.GET("/chronovore/crafting")));
  const { owned, library, loading, problem, reload } = useOwned();
  const decks = useResource(() => listed(api.GET("/chronovore/decks")));
  const wallet = useWallet("chronovore");
  const [search, setSearch] = useState("");
  const [rarity, setRarity] = useState("");
  const [done, setDone] = useState("");
  const action = useAction();

  const inDecks = useMemo(() => new Set((decks.data ?? []).flatMap((d) => (d.cards ?? []).map((c) => c.id ?? ""))), [decks.data]);
  const ownedByDefinition = useMemo(() => new Map(owned.map((c) => [c.definitionId, c])), [owned]);
  const balance = wallet.data?.balances?.find((b) => b.currency === FRAGMENTS)?.balance ?? 0;
  const weakenedDays = prices.data?.weakenedDays ?? 7;

  const after = async (made: Made) => {
    setDone(madeText(made));
    await Promise.all([reload(), wallet.reload(), decks.reload()]);
  };
  const shred = (copyId: string) =>
    action.run(async () => {
      setDone("");
      const made = await unwrap(api.POST("/chronovore/collection/{copy_id}/shred", { params: { path: { copy_id: copyId }, header: { "Idempotency-Key": idempotencyKey() } } }));
      await after(made);
    });
  const craft = (definitionId: string, finish: string) =>
    action.run(async () => {
      setDone("");
      const made = await unwrap(api.POST("/chronovore/craft", { params: { header: { "Idempotency-Key": idempotencyKey() } }, body: { definitionId, finish } }));
      await after(made);
    });

  const loose = (card: OwnedCard, finish: string) => card.copies.filter((c) => card.finishOf[c] === finish && !inDecks.has(c));
  const needle = search.trim().toLocaleLowerCase();
  const wanted = (name: string, cardRarity: string) => (!rarity || cardRarity === rarity) && (!needle || name.toLocaleLowerCase().includes(needle));
  const shreddable = owned.filter((c) => wanted(c.name, c.rarity) && FINISHES.some((f) => loose(c, f).length > 0));
  const craftable = (library ?? []).filter((c) => wanted(c.name ?? "", c.rarity ?? ""));
  const matching = (count: number) => (count > SHOWN ? `${count} cards match; the first ${SHOWN} are shown.` : `${count} cards match.`);

  return (
    <Screen title="Shred and craft">
      {(loading || prices.loading) && <Loading what="your cards and the prices" />}
      <ProblemBox problem={problem ?? prices.problem ?? wallet.problem ?? decks.problem} />
      <p>
        Card Fragments: <strong>{balance}</strong>.{" "}
        <span class="note">Shredding removes a Plain or Golden copy and pays Card Fragments; crafting spends them for a new copy, up to the card's copy limit (every finish counted). Diamond copies are neither.</span>
      </p>
      <p class="note">
        For {weakenedDays} days after a card is weakened, shredding a Plain or Golden copy of it pays that finish's full crafting cost (the third column).
      </p>
      {prices.data && (
        <details>
          <summary>What each rarity and finish pays and costs</summary>
          <PriceTable prices={prices.data} />
        </details>
      )}
      <ProblemBox problem={action.problem} title="Not done:" />
      {done && <p role="status">{done}</p>}
      <fieldset>
        <legend>Find cards to shred or craft</legend>
        <label for="cv-craft-search">Card name</label>
        <input id="cv-craft-search" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
        <label for="cv-craft-rarity">Rarity</label>
        <select id="cv-craft-rarity" value={rarity} onChange={(e) => setRarity(e.currentTarget.value)}>
          <option value="">Any</option>
          {RARITIES.map((r) => <option key={r} value={r}>{title(r)}</option>)}
        </select>
      </fieldset>

      <section aria-labelledby="cv-shred">
        <h2 id="cv-shred">Shred a loose copy</h2>
        <p class="note">Only copies in none of your saved decks are offered: take a copy out of its deck first.</p>
        {!loading && shreddable.length === 0 && <p>No loose Plain or Golden copy{needle || rarity ? " matches" : ""}. <a href={href({ name: "cv_packs" })}>Open packs</a>.</p>}
        {shreddable.length > 0 && <p>{matching(shreddable.length)}</p>}
        <CardGrid labelledBy="cv-shred">
          {shreddable.slice(0, SHOWN).map((card) => {
            const entry = (library ?? []).find((c) => c.id === card.definitionId);
            const weakening = (entry?.definition as { weakening?: boolean } | undefined)?.weakening === true;
            const face = entry ? chronovoreFace(faceOf(entry)) : null;
            return (
              <li key={card.definitionId}>
                {face ? <GameCard face={face} compact /> : <>{card.name} · {title(card.rarity)}</>}
                {weakening && <p class="note">Weakened: a shred pays its crafting cost for {weakenedDays} days after the change.</p>}
                {FINISHES.map((finish) => {
                  const copies = loose(card, finish);
                  if (copies.length === 0) return null;
                  const price = priceOf(prices.data, card.rarity, finish);
                  return (
                    <span key={finish} class="actions">
                      {" "}{copies.length} loose {title(finish)}{" "}
                      <button type="button" disabled={action.busy} onClick={() => void shred(copies[0]!)}
                        aria-label={`Shred a ${title(finish)} ${card.name} for ${price?.shred ?? "?"} Card Fragments`}>
                        Shred one: +{price?.shred ?? "?"} (+{price?.shredWeakened ?? "?"} if weakened)
                      </button>
                    </span>
                  );
                })}
              </li>
            );
          })}
        </CardGrid>
      </section>

      <section aria-labelledby="cv-craft">
        <h2 id="cv-craft">Craft a card</h2>
        <p>{matching(craftable.length)}</p>
        <CardGrid labelledBy="cv-craft">
          {craftable.slice(0, SHOWN).map((entry) => {
            const face = faceOf(entry);
            const mine = ownedByDefinition.get(entry.id ?? "")?.copies.length ?? 0;
            const limit = priceOf(prices.data, face.rarity, "plain")?.copyLimit ?? 0;
            const full = limit > 0 && mine >= limit;
            return (
              <li key={entry.id}>
                <GameCard face={chronovoreFace(face)} compact />
                <p>
                  You own {mine} of {limit}
                  {full && <span class="note"> (at the copy limit)</span>}
                </p>
                {FINISHES.map((finish) => {
                  const cost = priceOf(prices.data, face.rarity, finish)?.craft ?? 0;
                  return (
                    <span key={finish}>
                      {" "}
                      <button type="button" disabled={action.busy || full} onClick={() => void craft(entry.id ?? "", finish)}
                        aria-label={`Craft a ${title(finish)} ${face.name} for ${cost} Card Fragments`}>
                        {title(finish)}: {cost}
                      </button>
                    </span>
                  );
                })}
              </li>
            );
          })}
        </CardGrid>
      </section>
    </Screen>
  );
}
