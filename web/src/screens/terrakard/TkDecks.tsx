/**
 * TerraKard attack decks: the list, and the editor (8 of your cards within your level's
 * attack budget; the cost meter moves as you pick). Saving sends the copy ids (and, for
 * a saved deck, the version you loaded); the server's refusal is shown in place.
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import { assessAttackDeck, cannotAddToDeck, DECK_CARDS, type TkCard } from "../../lib/terrakardRules";
import { href, navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { terrakardFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { CostMeter } from "./TkCards";
import { useTkCollection } from "./TkHome";

export function useTkDecks() {
  return useResource(() => listed(api.GET("/terrakard/decks")));
}

function NotStarted() {
  return (
    <p class="callout">
      First <a href={href({ name: "tk_home" })}>claim your starting collection</a>.
    </p>
  );
}

export function TkDecks() {
  const decks = useTkDecks();
  return (
    <Screen title="Attack decks">
      {decks.loading && <Loading what="your decks" />}
      <ProblemBox problem={decks.problem} />
      {decks.data && decks.data.length === 0 && <p>No attack deck yet.</p>}
      <ul class="menu" aria-label="Your attack decks">
        {(decks.data ?? []).map((d) => (
          <li key={d.id}>
            <a href={href({ name: "tk_deck", id: d.id ?? null })}>{d.name}</a>: cost {d.cost} of {d.budget},{" "}
            {d.legal ? "✓ legal" : `✗ not legal (${(d.problems ?? []).map((p) => p.message).join("; ")})`}
          </li>
        ))}
      </ul>
      <p><a href={href({ name: "tk_deck", id: null })}>New attack deck</a></p>
    </Screen>
  );
}

export function TkDeckEditor({ id }: { id: string | null }) {
  const collection = useTkCollection();
  const decks = useTkDecks();
  const deck = id ? (decks.data ?? []).find((d) => d.id === id) : undefined;
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const action = useAction();

  useEffect(() => {
    if (deck) {
      setName(deck.name ?? "");
      setPicked((deck.cards ?? []).map((c) => c.id ?? ""));
    }
  }, [deck?.id, deck?.version]);

  const cards: TkCard[] = collection.data?.cards ?? [];
  const chosen = picked.map((p) => cards.find((c) => c.id === p)).filter((c): c is TkCard => !!c);
  const budget = collection.data?.budget?.attack ?? 0;
  const assessment = assessAttackDeck(chosen, budget);

  const save = () =>
    action.run(async () => {
      if (id && deck) {
        await unwrap(
          api.PATCH("/terrakard/decks/{attack_deck_id}", {
            params: { path: { attack_deck_id: id } },
            body: { expectedVersion: deck.version ?? 0, name, cards: picked },
          }),
        );
        await decks.reload();
      } else {
        const created = await unwrap(api.POST("/terrakard/decks", { body: { name, cards: picked } }));
        navigate({ name: "tk_deck", id: created.id ?? null });
      }
    });
  const remove = () =>
    action.run(async () => {
      if (!id || !deck) return;
      await unwrap(
        api.DELETE("/terrakard/decks/{attack_deck_id}", {
          params: { path: { attack_deck_id: id }, query: { expectedVersion: deck.version ?? 0 } },
        }),
      );
      navigate({ name: "tk_decks" });
    });

  const title = id ? `Attack deck: ${deck?.name ?? ""}` : "New attack deck";
  if (collection.loading || decks.loading) return <Screen title={title}><Loading what="your cards" /></Screen>;
  if (collection.data && !collection.data.started) return <Screen title={title}><NotStarted /></Screen>;
  return (
    <Screen title={title}>
      <ProblemBox problem={collection.problem ?? decks.problem} />
      {id && !deck && !decks.problem && <p role="alert">This deck no longer exists.</p>}
      <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label for="tk-deck-name">Deck name</label>
        <input id="tk-deck-name" required maxLength={40} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <CostMeter id="tk-deck-cost" cost={assessment.cost} budget={budget} problems={assessment.problems} legal={assessment.legal} empty={`Pick ${DECK_CARDS} cards.`} />
        {id && deck && (
          <p>Saved version: {deck.legal ? "✓ legal" : "✗ not legal"}{(deck.problems ?? []).length ? ` (${(deck.problems ?? []).map((p) => p.message).join("; ")})` : ""}.</p>
        )}
        <h2 id="tk-in-deck">In the deck ({chosen.length} of {DECK_CARDS})</h2>
        <CardGrid labelledBy="tk-in-deck" ordered>
          {chosen.map((c) => (
            <li key={c.id}>
              <GameCard face={terrakardFace(c)}>
                <button type="button" onClick={() => setPicked(picked.filter((p) => p !== c.id))} aria-label={`Remove ${c.name}`}>Remove</button>
              </GameCard>
            </li>
          ))}
        </CardGrid>
        <h2 id="tk-your-cards">Your cards</h2>
        <CardGrid labelledBy="tk-your-cards">
          {cards.filter((c) => !picked.includes(c.id ?? "")).map((c) => {
            const why = cannotAddToDeck(chosen, c);
            return (
              <li key={c.id}>
                <GameCard face={terrakardFace(c)}>
                  <button type="button" disabled={why !== null} onClick={() => setPicked([...picked, c.id ?? ""])} aria-label={`Add ${c.name}`}
                    aria-describedby={why ? `why-${c.id}` : undefined}>Add</button>
                  {why && <p class="note" id={`why-${c.id}`}>{why}</p>}
                </GameCard>
              </li>
            );
          })}
        </CardGrid>
        <ProblemBox problem={action.problem} title="Not saved:" />
        {action.problem?.code === "stale_version" && (
          <button type="button" onClick={() => { action.clear(); void decks.reload(); }}>Reload the deck</button>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>{id ? "Save changes" : "Save deck"}</button>
          {id && (
            <button type="button" class="danger" disabled={action.busy} onClick={() => confirm(`Delete the deck ${name}?`) && void remove()}>
              Delete deck
            </button>
          )}
          <a href={href({ name: "tk_arena" })}>Attack with a deck</a>
        </div>
      </form>
    </Screen>
  );
}
