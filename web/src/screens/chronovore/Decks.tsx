/**
 * Chronovore collection and deck lists: your cards (by definition, with the library's
 * class), your lists with their legal mark, and the editor: choose a class, add copies of
 * that class and Neutral within the copy limits, 30 for a legal deck. Saving stores the
 * list either way (a work in progress keeps its problems); the server's mark is shown.
 */
import { useEffect, useMemo, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import type { Answer } from "../../api/types";
import { assessDeck, cannotAdd, COPY_LIMIT, DECK_SIZE, type Entry } from "../../lib/chronovoreRules";
import { href, navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { EmblemMark } from "../../ui/emblems";
import { chronovoreFace } from "../../ui/faces";
import { capitalised, CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { copiesText } from "../collection/Collection";
import { CLASS_NOTES, CLASSES, cardText, type CvCard, title } from "./describe";
import { faceOf, type LibraryCard, useLibrary } from "./Library";

type Collection = Answer<"getChronovoreCollection">;

export interface OwnedCard extends Entry {
  definitionId: string;
  copies: string[];
  /** Each finish on its own (rulebook): "plain" 2, "golden" 1. */
  finishes: Record<string, number>;
  /** Each copy's finish, by copy id. */
  finishOf: Record<string, string>;
  text: string;
  /** The card as its face shows it (the library's, with the collection's keywords) */
  card: CvCard;
}

const FINISH_ORDER = ["plain", "golden", "diamond"];

/** The finest finish among ``finishes`` (its frame is the one a card of yours shows). */
export function bestFinish(finishes: Record<string, number>): string {
  return Object.keys(finishes).sort((a, b) => FINISH_ORDER.indexOf(b) - FINISH_ORDER.indexOf(a))[0] ?? "plain";
}

export function finishesText(finishes: Record<string, number>): string {
  return Object.entries(finishes)
    .sort((a, b) => FINISH_ORDER.indexOf(a[0]) - FINISH_ORDER.indexOf(b[0]))
    .map(([finish, count]) => `${count} ${title(finish)}`)
    .join(", ");
}

/** Your cards by definition, each with its class and face from the library. */
export function ownedCards(collection: Collection | null, library: LibraryCard[] | null): OwnedCard[] {
  const byId = new Map((library ?? []).map((c) => [c.id, c]));
  return (collection?.definitions ?? []).map((group) => {
    const entry = byId.get(group.definition?.id);
    const face = entry ? faceOf(entry) : null;
    const definition = group.definition ?? {};
    const card: CvCard = face ?? { name: definition.name ?? "", kind: definition.kind ?? "", rarity: definition.rarity ?? "", cardClass: "neutral", rewards: [] };
    return {
      definitionId: group.definition?.id ?? "",
      name: group.definition?.name ?? "",
      rarity: group.definition?.rarity ?? "",
      cardClass: face?.cardClass ?? "neutral",
      copies: (group.copies ?? []).map((c) => c.id ?? ""),
      finishes: (group.copies ?? []).reduce<Record<string, number>>((found, c) => {
        const finish = c.finish ?? "plain";
        found[finish] = (found[finish] ?? 0) + 1;
        return found;
      }, {}),
      finishOf: Object.fromEntries((group.copies ?? []).map((c) => [c.id ?? "", c.finish ?? "plain"])),
      text: face ? cardText(face) : "",
      card: definition.keywords ? { ...card, keywords: definition.keywords as CvCard["keywords"] } : card,
    };
  });
}

export function useOwned() {
  const collection = useResource(() => unwrap(api.GET("/chronovore/collection")));
  const library = useLibrary();
  const owned = useMemo(() => ownedCards(collection.data, library.data), [collection.data, library.data]);
  return {
    owned,
    library: library.data,
    loading: collection.loading || library.loading,
    problem: collection.problem ?? library.problem,
    total: collection.data?.totalCopies ?? 0,
    reload: collection.reload,
  };
}

export function CvCollection() {
  const { owned, loading, problem, total } = useOwned();
  return (
    <Screen title="Your Chronovore cards">
      {loading && <Loading what="your cards" />}
      <ProblemBox problem={problem} />
      {!loading && (
        <p>
          {total} cards. {total === 0 && <>Open your packs on the <a href={href({ name: "cv_packs" })}>Packs page</a>.</>}
        </p>
      )}
      {owned.length > 0 && (
        <CardGrid label="Chronovore cards you own">
          {owned.map((c) => (
            <li key={c.definitionId}>
              <GameCard face={chronovoreFace(c.card, bestFinish(c.finishes))}>
                <p>{copiesText(c.copies.length)}: {finishesText(c.finishes)}</p>
              </GameCard>
            </li>
          ))}
        </CardGrid>
      )}
    </Screen>
  );
}

export function CvDecks() {
  const decks = useResource(() => listed(api.GET("/chronovore/decks")));
  return (
    <Screen title="Chronovore decks">
      {decks.loading && <Loading what="your decks" />}
      <ProblemBox problem={decks.problem} />
      {decks.data && decks.data.length === 0 && <p>No deck yet.</p>}
      <ul class="menu" aria-label="Your Chronovore decks">
        {(decks.data ?? []).map((d) => (
          <li key={d.id}>
            <a href={href({ name: "cv_deck", id: d.id ?? null })}>{d.name}</a>: {(d.cards ?? []).length} cards,{" "}
            {d.legal ? "✓ legal" : `✗ work in progress (${(d.problems ?? []).length} problems)`}
          </li>
        ))}
      </ul>
      <p><a href={href({ name: "cv_deck", id: null })}>New Chronovore deck</a> · <a href={href({ name: "cv_collection" })}>Your cards</a></p>
    </Screen>
  );
}

export function CvDeckEditor({ id }: { id: string | null }) {
  const { owned, loading, problem } = useOwned();
  const deck = useResource(
    () => (id ? unwrap(api.GET("/chronovore/decks/{deck_id}", { params: { path: { deck_id: id } } })) : Promise.resolve(null)),
    [id],
  );
  const [name, setName] = useState("");
  const [picked, setPicked] = useState<string[]>([]);
  const [cardClass, setCardClass] = useState<string>(CLASSES[0]);
  const action = useAction();

  const byCopy = useMemo(() => new Map(owned.flatMap((c) => c.copies.map((copy) => [copy, c] as const))), [owned]);
  useEffect(() => {
    if (!deck.data) return;
    setName(deck.data.name ?? "");
    const ids = (deck.data.cards ?? []).map((c) => c.id ?? "");
    setPicked(ids);
  }, [deck.data]);
  const entries = picked.map((p) => byCopy.get(p)).filter((c): c is OwnedCard => !!c);
  const assessment = assessDeck(entries);
  useEffect(() => {
    if (deck.data && assessment.deckClass && assessment.deckClass !== "neutral") setCardClass(assessment.deckClass);
  }, [deck.data, owned.length]);

  const add = (card: OwnedCard) => {
    const free = card.copies.find((c) => !picked.includes(c));
    if (free) setPicked([...picked, free]);
  };
  const removeOne = (card: OwnedCard) => {
    const last = [...picked].reverse().find((p) => card.copies.includes(p));
    if (last) setPicked(picked.filter((p) => p !== last));
  };
  const save = () =>
    action.run(async () => {
      if (id && deck.data) {
        deck.set(await unwrap(api.PUT("/chronovore/decks/{deck_id}", { params: { path: { deck_id: id } }, body: { expectedVersion: deck.data.version ?? 1, name, cards: picked } })));
      } else {
        const created = await unwrap(api.POST("/chronovore/decks", { body: { name, cards: picked } }));
        navigate({ name: "cv_deck", id: created.id ?? null });
      }
    });
  const remove = () =>
    action.run(async () => {
      if (!id || !deck.data) return;
      await unwrap(api.DELETE("/chronovore/decks/{deck_id}", { params: { path: { deck_id: id }, query: { expectedVersion: deck.data.version ?? 1 } } }));
      navigate({ name: "cv_decks" });
    });

  const title_ = id ? `Chronovore deck: ${deck.data?.name ?? ""}` : "New Chronovore deck";
  if (loading || deck.loading) return <Screen title={title_}><Loading what="your cards" /></Screen>;
  const inDeck = owned.filter((c) => entries.some((e) => e.definitionId === c.definitionId));
  const offered = owned.filter((c) => c.cardClass === cardClass || c.cardClass === "neutral");
  const serverProblems = deck.data?.problems ?? [];
  return (
    <Screen title={title_}>
      <ProblemBox problem={problem ?? deck.problem} />
      <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label for="cv-deck-name">Deck name</label>
        <input id="cv-deck-name" required maxLength={40} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <fieldset>
          <legend>Class (its cards and Neutral cards)</legend>
          {CLASSES.map((c) => (
            <label key={c} class="choice">
              <input type="radio" name="cv-class" value={c} checked={cardClass === c} onChange={() => setCardClass(c)} />
              <EmblemMark of={c} />
              <span>{title(c)}: {CLASS_NOTES[c]}</span>
            </label>
          ))}
        </fieldset>
        <div class="deck-meter" aria-live="polite">
          <ul class="rules" aria-label="Deck rules">
            <li class={assessment.size === DECK_SIZE ? "ok" : "bad"}>{assessment.size === DECK_SIZE ? "✓ " : "✗ "}Cards: {assessment.size} of {DECK_SIZE}</li>
            <li class={assessment.deckClass ? "ok" : "bad"}>{assessment.deckClass ? `✓ Class: ${title(assessment.deckClass)}` : "✗ Classes are mixed"}</li>
          </ul>
          <p>{assessment.legal ? "This list is legal." : "Not legal yet:"}</p>
          {assessment.problems.length > 0 && (
            <ul aria-label="What the list breaks">{assessment.problems.map((p) => <li key={p}>{p}</li>)}</ul>
          )}
        </div>
        {deck.data && (
          <div class="callout">
            <p>Saved version {deck.data.version}: {deck.data.legal ? "✓ Legal: it can be played." : "✗ A work in progress: it cannot be played yet."}</p>
            {serverProblems.length > 0 && <ul aria-label="The saved list's problems">{serverProblems.map((p) => <li key={p.message}>{p.message}</li>)}</ul>}
          </div>
        )}
        <h2 id="cv-in-deck">In the deck ({entries.length})</h2>
        <CardGrid labelledBy="cv-in-deck">
          {inDeck.map((c) => {
            const count = entries.filter((e) => e.definitionId === c.definitionId).length;
            return (
              <li key={c.definitionId}>
                <GameCard face={chronovoreFace(c.card)}>
                  <p>In the deck: {count}</p>
                  <button type="button" onClick={() => removeOne(c)} aria-label={`Remove one ${c.name}`}>Remove one</button>
                </GameCard>
              </li>
            );
          })}
        </CardGrid>
        <h2 id="cv-your-cards">Your {title(cardClass)} and Neutral cards</h2>
        <CardGrid labelledBy="cv-your-cards">
          {offered.map((c) => {
            const count = entries.filter((e) => e.definitionId === c.definitionId).length;
            const owns = c.copies.length - count;
            const why = owns <= 0 ? "No copy of yours is left to add." : cannotAdd(entries, c, cardClass);
            return (
              <li key={c.definitionId}>
                <GameCard face={chronovoreFace(c.card)}>
                  <p>In the deck {count} of {COPY_LIMIT[c.rarity] ?? 0}; you own {c.copies.length}</p>
                  <button type="button" disabled={!!why} onClick={() => add(c)} aria-label={`Add ${c.name}`}
                    aria-describedby={why ? `why-${c.definitionId}` : undefined}>Add</button>
                  {why && <p class="note" id={`why-${c.definitionId}`}>{capitalised(why)}</p>}
                </GameCard>
              </li>
            );
          })}
        </CardGrid>
        <ProblemBox problem={action.problem} title="Not saved:" />
        {action.problem?.code === "stale_version" && (
          <button type="button" onClick={() => { action.clear(); void deck.reload(); }}>Reload the deck</button>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>{id ? "Save changes" : "Save deck"}</button>
          {id && <button type="button" class="danger" disabled={action.busy} onClick={() => confirm(`Delete the deck ${name}?`) && void remove()}>Delete deck</button>}
          <a href={href({ name: "cv_match" })}>Play the computer</a>
        </div>
      </form>
    </Screen>
  );
}
