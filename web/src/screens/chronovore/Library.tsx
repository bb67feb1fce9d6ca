/**
 * The Chronovore library: every Core Set card, public (no account needed). Filter by
 * class, kind, rarity or name. Each is drawn as a card (GameCard); each keyword is bold,
 * its definition opens under it.
 */
import { useMemo, useState } from "preact/hooks";

import { api, listed } from "../../api/client";
import type { Answer } from "../../api/types";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { chronovoreCard, chronovoreFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useResource } from "../../ui/resource";
import { CLASS_NOTES, CLASSES, type CvCard, RARITIES, title } from "./describe";

export type LibraryCard = Answer<"getChronovoreLibrary">["items"][number];

/** A library entry as a match card (its definition's numbers and rewards, and keywords). */
export function faceOf(entry: LibraryCard): CvCard {
  return chronovoreCard(entry);
}

export function useLibrary() {
  return useResource(() => listed(api.GET("/chronovore/library")));
}

export function Library() {
  const library = useLibrary();
  const [cardClass, setCardClass] = useState("");
  const [kind, setKind] = useState("");
  const [rarity, setRarity] = useState("");
  const [search, setSearch] = useState("");
  const cards = useMemo(() => (library.data ?? []).map(faceOf), [library.data]);
  const shown = cards.filter(
    (c) =>
      (!cardClass || c.cardClass === cardClass) &&
      (!kind || c.kind === kind) &&
      (!rarity || c.rarity === rarity) &&
      (!search || c.name.toLocaleLowerCase().includes(search.toLocaleLowerCase())),
  );
  return (
    <Screen title="Chronovore library">
      <p class="note">Every Core Set card. Browsing needs no account; buying and opening packs and playing ask you to sign in.</p>
      {library.loading && <Loading what="the library" />}
      <ProblemBox problem={library.problem} />
      <form class="filters" role="search" aria-label="Filter the library" onSubmit={(e) => e.preventDefault()}>
        <label for="cv-filter-class">Class</label>
        <select id="cv-filter-class" value={cardClass} onChange={(e) => setCardClass(e.currentTarget.value)}>
          <option value="">Every class</option>
          {[...CLASSES, "neutral"].map((c) => <option key={c} value={c}>{title(c)}: {CLASS_NOTES[c]}</option>)}
        </select>
        <label for="cv-filter-kind">Kind</label>
        <select id="cv-filter-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          <option value="">Monsters and events</option>
          <option value="monster">Monsters</option>
          <option value="event_card">Events</option>
        </select>
        <label for="cv-filter-rarity">Rarity</label>
        <select id="cv-filter-rarity" value={rarity} onChange={(e) => setRarity(e.currentTarget.value)}>
          <option value="">Every rarity</option>
          {RARITIES.map((r) => <option key={r} value={r}>{title(r)}</option>)}
        </select>
        <label for="cv-filter-name">Name</label>
        <input id="cv-filter-name" type="search" value={search} onInput={(e) => setSearch(e.currentTarget.value)} />
      </form>
      {library.data && <p role="status">{shown.length} of {cards.length} cards.</p>}
      <CardGrid label="Library cards">
        {shown.map((c) => (
          <li key={c.name}>
            <GameCard face={chronovoreFace(c)} />
          </li>
        ))}
      </CardGrid>
    </Screen>
  );
}
