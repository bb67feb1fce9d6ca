/**
 * Build or edit a deck from your copies. The meter moves as you pick; saving sends the
 * copy ids and, for an existing deck, the version you loaded (a stale one is refused and
 * explained). The server's refusal is shown in place.
 */
import { useEffect, useMemo, useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import { cannotAdd, type DeckCard } from "../../lib/deckRules";
import { href, navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { questFace, useCatalogue } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { DeckMeter } from "./DeckMeter";

export interface Copy extends DeckCard {
  name: string;
  affinity: string | null;
  definitionId: string;
}

/** Every owned copy, one row each (two copies of a card are two choices). */
export function copiesOf(collection: Schemas["Collection"]): Copy[] {
  return (collection.definitions ?? []).flatMap((group) =>
    (group.copies ?? []).map((copy) => ({
      id: copy.id ?? "",
      name: group.definition?.name ?? "",
      kind: group.definition?.kind ?? "",
      rarity: group.definition?.rarity ?? "",
      affinity: group.definition?.affinity ?? null,
      definitionId: group.definition?.id ?? "",
    })),
  );
}

export function DeckBuilder({ id }: { id: string | null }) {
  const collection = useResource(() => unwrap(api.GET("/quest/collection")));
  const catalogue = useCatalogue("quest");
  const deck = useResource(
    () =>
      id
        ? unwrap(api.GET("/quest/decks/{deck_id}", { params: { path: { deck_id: id } } }))
        : Promise.resolve(null),
    [id],
  );
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const action = useAction();

  useEffect(() => {
    if (deck.data) {
      setName(deck.data.name ?? "");
      setPicked((deck.data.cards ?? []).map((c) => c.id ?? ""));
    }
  }, [deck.data]);

  const copies = useMemo(() => (collection.data ? copiesOf(collection.data) : []), [collection.data]);
  const chosen = picked.map((pid) => copies.find((c) => c.id === pid)).filter((c): c is Copy => !!c);

  const save = () =>
    action.run(async () => {
      if (id && deck.data) {
        deck.set(
          await unwrap(
            api.PUT("/quest/decks/{deck_id}", {
              params: { path: { deck_id: id } },
              body: { expectedVersion: deck.data.version ?? 0, name, cards: picked },
            }),
          ),
        );
      } else {
        const created = await unwrap(api.POST("/quest/decks", { body: { name, cards: picked } }));
        navigate({ name: "deck", id: created.id ?? null });
      }
    });

  const remove = () =>
    action.run(async () => {
      if (!id || !deck.data) return;
      await unwrap(
        api.DELETE("/quest/decks/{deck_id}", {
          params: { path: { deck_id: id }, query: { expectedVersion: deck.data.version ?? 0 } },
        }),
      );
      navigate({ name: "decks" });
    });

  const title = id ? `Deck: ${deck.data?.name ?? ""}` : "New deck";
  if (collection.loading || deck.loading) return <Screen title={title}><Loading what="your cards" /></Screen>;
  return (
    <Screen title={title}>
      <ProblemBox problem={collection.problem ?? deck.problem} />
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        <label for="deck-name">Deck name</label>
        <input id="deck-name" required maxLength={40} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <DeckMeter cards={chosen} />
        <h2 id="in-deck">In the deck ({chosen.length} of 5)</h2>
        <CardGrid labelledBy="in-deck">
          {chosen.map((c) => (
            <li key={c.id}>
              <GameCard face={questFace(c, catalogue?.get(c.definitionId))}>
                <button type="button" onClick={() => setPicked(picked.filter((p) => p !== c.id))} aria-label={`Remove ${c.name}`}>
                  Remove
                </button>
              </GameCard>
            </li>
          ))}
        </CardGrid>
        <h2 id="your-cards">Your cards</h2>
        <CardGrid labelledBy="your-cards">
          {copies
            .filter((c) => !picked.includes(c.id))
            .map((c) => {
              const why = cannotAdd(chosen, c);
              return (
                <li key={c.id}>
                  <GameCard face={questFace(c, catalogue?.get(c.definitionId))}>
                    <button
                      type="button"
                      disabled={why !== null}
                      onClick={() => setPicked([...picked, c.id])}
                      aria-label={`Add ${c.name}`}
                      aria-describedby={why ? `why-${c.id}` : undefined}
                    >
                      Add
                    </button>
                    {why && <p class="note" id={`why-${c.id}`}>{why}</p>}
                  </GameCard>
                </li>
              );
            })}
        </CardGrid>
        <ProblemBox problem={action.problem} title="Not saved:" />
        {action.problem?.code === "stale_version" && (
          <button type="button" onClick={() => { action.clear(); void deck.reload(); }}>
            Reload the deck
          </button>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>{id ? "Save changes" : "Save deck"}</button>
          {id && (
            <button type="button" class="danger" disabled={action.busy} onClick={() => confirm(`Delete the deck ${name}?`) && void remove()}>
              Delete deck
            </button>
          )}
          <a href={href({ name: "battle" })}>Battle with a deck</a>
        </div>
      </form>
    </Screen>
  );
}
