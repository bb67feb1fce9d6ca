/**
 * A game's packs: every kind's exact odds (public, shown before any opening), your
 * unopened packs, the opening (cards with rarity and finish, and its fair roll), the shop
 * for kinds with a price, and your balance. Each change carries an Idempotency-Key, so a
 * retried click is applied once.
 */
import { useState } from "preact/hooks";

import { api, idempotencyKey, listed, unwrap } from "../../api/client";
import { whenAllowed } from "../../api/pace";
import type { Answer } from "../../api/types";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { openedFace, useCatalogue } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { fractionText, slotGroups, title } from "./odds";

export type EconomyGame = "chronovore" | "terrakard";
type Odds = Answer<"getPackOdds">["items"][number];
type Opening = Answer<"openPack">;

const GAME_NAMES: Record<EconomyGame, string> = { chronovore: "Chronovore", terrakard: "TerraKard" };

/** A currency in words, the same on every screen ("Card Fragments" as crafting says it). */
const CURRENCY_NAMES: Record<string, string> = { gold: "Gold", fragments: "Card Fragments", rampart_tokens: "Rampart tokens" };

/**
 * How a currency is earned, in words: a shop a first session cannot reach yet says how to
 * get there (rules/chronovore.txt, "Gold"; rules/terrakard.txt, "Rewards").
 */
const EARN: Record<string, (need: number) => string> = {
  gold: (need) =>
    `Earn ${need} more: a finished game against the computer earns 1 Gold, a game against another player 1 to 3 (a few more for your first five of the day).`,
  rampart_tokens: (need) => `Earn ${need} more: each defense you win in the arena earns 1.`,
};

/** How a game's packs without a price are earned. */
const EARNED_PACKS: Partial<Record<EconomyGame, string>> = {
  terrakard:
    "Win an attack in the arena to earn one: three stars a Gold Pack, two a Silver Pack, one a Bronze Pack (one tier lower against an automatic plan or a plan far below its budget).",
};

export function currencyName(currency: string | null | undefined): string {
  return CURRENCY_NAMES[currency ?? ""] ?? title(currency ?? "");
}

export function useWallet(game: EconomyGame) {
  return useResource(() => unwrap(api.GET("/{game}/wallet", { params: { path: { game } } })), [game]);
}

export function Balances({ game }: { game: EconomyGame }) {
  const wallet = useWallet(game);
  if (wallet.loading) return <Loading what="your balance" />;
  return (
    <>
      <ProblemBox problem={wallet.problem} />
      <ul aria-label="Your balance" class="menu">
        {(wallet.data?.balances ?? []).map((b) => <li key={b.currency}>{currencyName(b.currency)}: <strong>{b.balance}</strong></li>)}
      </ul>
    </>
  );
}

/** Rarities from the lowest up, as the pack kind lists them. */
function byRarity(entries: [string, string][], order: string[]): [string, string][] {
  const rank = (r: string) => (order.includes(r) ? order.indexOf(r) : order.length);
  return [...entries].sort((a, b) => rank(a[0]) - rank(b[0]));
}

export function OddsTable({ odds }: { odds: Odds }) {
  const finishes = Object.entries(odds.finishOdds ?? {});
  return (
    <div class="odds" aria-label={`Odds of a ${odds.name}`} role="group">
      <p>{odds.cards} cards a pack.{odds.floor ? ` If no card reaches ${title(odds.floor)}, one card drawn at random becomes ${title(odds.floor)}.` : ""}</p>
      {slotGroups((odds.slotRarityOdds ?? []) as Record<string, string>[]).map((group) => (
        <table key={group.label}>
          <caption>{group.label}: rarity</caption>
          <tbody>
            {byRarity(Object.entries(group.odds), odds.rarities ?? []).map(([rarity, chance]) => (
              <tr key={rarity}><th scope="row">{title(rarity)}</th><td>{fractionText(chance)}</td></tr>
            ))}
          </tbody>
        </table>
      ))}
      {finishes.length > 0 && (
        <table>
          <caption>Each card: finish</caption>
          <tbody>
            {finishes.map(([finish, chance]) => <tr key={finish}><th scope="row">{title(finish)}</th><td>{fractionText(chance)}</td></tr>)}
          </tbody>
        </table>
      )}
    </div>
  );
}

function OpeningView({ game, opening }: { game: EconomyGame; opening: Opening }) {
  const catalogue = useCatalogue(game);
  const titleId = `opened-${opening.packId}`;
  return (
    <section aria-labelledby={titleId} class="callout">
      <h2 id={titleId}>You opened {opening.cards?.length ?? 0} cards</h2>
      <CardGrid label="Cards in the pack">
        {(opening.cards ?? []).map((c) => (
          <li key={c.ownedCardId}>
            <GameCard face={openedFace(game, c, catalogue?.get(c.definitionId ?? ""))} compact />
          </li>
        ))}
      </CardGrid>
      {opening.roll && (
        <p class="note">
          Fair roll: nonce {opening.roll.nonce}, server seed hash <code class="wrap">{opening.roll.serverSeedHash}</code>.{" "}
          <a href={href({ name: "fairness" })}>Verify it</a>.
        </p>
      )}
    </section>
  );
}

export function Packs({ game }: { game: EconomyGame }) {
  const odds = useResource(() => listed(api.GET("/{game}/packs/odds", { params: { path: { game } } })), [game]);
  const inventory = useResource(() => unwrap(api.GET("/{game}/packs", { params: { path: { game } } })), [game]);
  const wallet = useWallet(game);
  const [opened, setOpened] = useState<Opening[]>([]);
  const [quantity, setQuantity] = useState<Record<string, number>>({});
  const action = useAction();

  const [progress, setProgress] = useState("");
  const open = (packIds: string[]) =>
    action.run(async () => {
      const done: Opening[] = [];
      try {
        for (const [n, packId] of packIds.entries()) {
          if (packIds.length > 1) setProgress(`Opening pack ${n + 1} of ${packIds.length}…`);
          // One key per pack: a retry after the rate limit is the same opening.
          const key = idempotencyKey();
          done.push(await whenAllowed(setProgress, () => unwrap(api.POST("/{game}/packs/{pack_id}/open", { params: { path: { game, pack_id: packId }, header: { "Idempotency-Key": key } } }))));
        }
      } finally {
        setProgress("");
        setOpened(done.reverse());
        await inventory.reload();
      }
    });
  const buy = (kind: string) =>
    action.run(async () => {
      await unwrap(
        api.POST("/{game}/shop/packs", {
          params: { path: { game }, header: { "Idempotency-Key": idempotencyKey() } },
          body: { kind, quantity: quantity[kind] ?? 1 },
        }),
      );
      await Promise.all([inventory.reload(), wallet.reload()]);
    });

  const [sold, setSold] = useState("");
  // Selling back cannot be undone: the pack is gone, its price is back in the wallet.
  const sell = (packId: string, kind: Odds) =>
    action.run(async () => {
      setSold("");
      const price = kind.price ? ` for ${kind.price.amount} ${currencyName(kind.price.currency)}` : "";
      if (!confirm(`Sell an unopened ${kind.name} back${price}? It cannot be opened afterwards.`)) return;
      const sale = await unwrap(
        api.POST("/{game}/packs/{pack_id}/sell", { params: { path: { game, pack_id: packId }, header: { "Idempotency-Key": idempotencyKey() } } }),
      );
      const refund = sale.refund;
      setSold(`You sold a ${kind.name} back: +${refund?.amount ?? 0} ${currencyName(refund?.currency)}, balance ${refund?.balanceAfter ?? "?"}.`);
      await Promise.all([inventory.reload(), wallet.reload()]);
    });

  const kinds = odds.data ?? [];
  const packs = inventory.data?.packs ?? [];
  const balance = (currency: string) => wallet.data?.balances?.find((b) => b.currency === currency)?.balance ?? 0;
  return (
    <Screen title={`${GAME_NAMES[game]} packs`}>
      {(odds.loading || inventory.loading) && <Loading what="your packs" />}
      <ProblemBox problem={odds.problem ?? inventory.problem ?? wallet.problem} />
      <ProblemBox problem={action.problem} title="Not done:" />
      {progress && <p role="status">{progress}</p>}
      {sold && <p role="status">{sold}</p>}
      {opened.length > 0 && (
        <div aria-live="polite">
          {opened.length > 1 && <p role="status">Opened {opened.length} packs; the last one first.</p>}
          {opened.slice(0, 3).map((o) => <OpeningView key={o.packId} game={game} opening={o} />)}
          {opened.length > 3 && (
            <details>
              <summary>The other {opened.length - 3} packs</summary>
              <ul>{opened.slice(3).flatMap((o) => (o.cards ?? []).map((c) => <li key={c.ownedCardId}>{c.name}: {title(c.rarity ?? "")} · {title(c.finish ?? "")}</li>))}</ul>
            </details>
          )}
        </div>
      )}
      {kinds.length === 0 && !odds.loading && <p>{GAME_NAMES[game]} has no packs yet.</p>}
      {kinds.map((kind) => {
        const mine = packs.filter((p) => p.kind === kind.kind);
        const price = kind.price;
        const count = quantity[kind.kind ?? ""] ?? 1;
        const cost = count * (price?.amount ?? 0);
        const have = balance(price?.currency ?? "");
        // Known short of the price: the button says why it cannot be used (the server decides anyway).
        const earn = price ? EARN[price.currency ?? ""] : undefined;
        const short = price && wallet.data && have < cost
          ? `You have ${have} ${currencyName(price.currency)}: ${count} ${count === 1 ? "costs" : "cost"} ${cost}.${earn ? ` ${earn(cost - have)}` : ""}`
          : "";
        return (
          <section key={kind.kind} aria-labelledby={`pack-${kind.kind}`}>
            <h2 id={`pack-${kind.kind}`}>{kind.name}</h2>
            <p>You have <strong>{mine.length}</strong> unopened.</p>
            {!price && EARNED_PACKS[game] && <p class="note">{EARNED_PACKS[game]}</p>}
            {kind.sellBack && (
              <p class="note">
                An unopened {kind.name} sells back for its full price{price ? `: ${price.amount} ${currencyName(price.currency)}` : ""}.
              </p>
            )}
            <details open={mine.length > 0}>
              <summary>The odds of a {kind.name}</summary>
              <OddsTable odds={kind} />
            </details>
            {mine.length > 0 && (
              <div class="actions">
                <button type="button" disabled={action.busy} onClick={() => void open([mine[0]!.id ?? ""])}>
                  Open a {kind.name}
                </button>
                {mine.length > 1 && (
                  <button type="button" disabled={action.busy} onClick={() => void open(mine.map((p) => p.id ?? ""))}>
                    Open all {mine.length}
                  </button>
                )}
                {kind.sellBack && (
                  <button type="button" class="danger" disabled={action.busy} onClick={() => void sell(mine[0]!.id ?? "", kind)}>
                    Sell a {kind.name} back
                  </button>
                )}
              </div>
            )}
            {price && (
              <form class="actions" onSubmit={(e) => { e.preventDefault(); void buy(kind.kind ?? ""); }}>
                <label for={`qty-${kind.kind}`}>How many</label>
                <input id={`qty-${kind.kind}`} type="number" min={1} max={100} value={count} style={{ width: "6rem" }}
                  onInput={(e) => setQuantity({ ...quantity, [kind.kind ?? ""]: Math.max(1, Math.min(100, Number(e.currentTarget.value) || 1)) })} />
                <button type="submit" disabled={action.busy || !!short} aria-describedby={`have-${kind.kind}`}>
                  Buy {count} for {cost} {currencyName(price.currency)}
                </button>
                <span class="note" id={`have-${kind.kind}`}>{short || `You have ${have} ${currencyName(price.currency)}.`}</span>
              </form>
            )}
          </section>
        );
      })}
    </Screen>
  );
}

export function Wallet({ game }: { game: EconomyGame }) {
  const history = useResource(() => unwrap(api.GET("/{game}/wallet/history", { params: { path: { game }, query: { limit: 50 } } })), [game]);
  return (
    <Screen title={`${GAME_NAMES[game]} wallet`}>
      <Balances game={game} />
      <h2 id="ledger">Recent changes</h2>
      {history.loading && <Loading what="your history" />}
      <ProblemBox problem={history.problem} />
      {history.data && (history.data.items ?? []).length === 0 && <p>No changes yet.</p>}
      <ul aria-labelledby="ledger" class="menu">
        {(history.data?.items ?? []).map((e) => (
          <li key={e.id}>
            {e.kind === "spend" ? "−" : "+"}{e.amount} {currencyName(e.currency)}: {e.reason} (then {e.balanceAfter}), {e.createdAt ? new Date(e.createdAt).toLocaleString() : ""}
          </li>
        ))}
      </ul>
    </Screen>
  );
}
