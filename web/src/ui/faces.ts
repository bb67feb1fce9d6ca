/**
 * Each game's cards as a `Face` for GameCard, from the API's generated types: the same
 * words for the same things in the three games ("Cost" in the corner, the rarity and its
 * finish in words), each game's own stats as its rulebook names them (Quest HP and Power,
 * TerraKard ATK and DEF, Chronovore Attack and Health).
 *
 * What a list answer lacks (a Quest card's HP and moves, a TerraKard card's ATK and DEF in
 * a pack) comes from the public catalogue (`GET /cards/catalogue?game=`), read once a page.
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, type Schemas } from "../api/client";
import { cardCost } from "../lib/deckRules";
import { moveText, type QuestEffect, questEffectText, type QuestMove } from "../lib/questWords";
import { type CvCard, type Keyword, rewardText } from "../screens/chronovore/describe";
import { capitalised, type CardGame, type CardKeyword, type Face, type Stat } from "./GameCard";

type Catalogue = Schemas["Catalogue"];

// -- Quest -----------------------------------------------------------------------------

interface QuestBody {
  hp?: number;
  maxHp?: number;
  maxPower?: number;
  moves?: QuestMove[];
  effects?: QuestEffect[];
  flavor?: string;
  evolved?: boolean;
}

export const QUEST_KINDS: Record<string, string> = { creature: "Creature", power_card: "Power card" };

/**
 * A Quest card from what a list says of it (name, kind, rarity, affinity) and, when
 * known, its catalogue entry (HP, Power, moves or effects).
 */
export function questFace(card: { name?: string; kind?: string; rarity?: string; affinity?: string | null; retired?: boolean }, entry?: Catalogue | null): Face {
  const body = (entry?.definition ?? {}) as QuestBody;
  const creature = card.kind === "creature";
  const stats: Stat[] = [];
  const hp = body.maxHp ?? body.hp;
  if (creature && hp !== undefined) stats.push({ label: "HP", value: hp });
  if (creature && body.maxPower !== undefined) stats.push({ label: "Power", value: body.maxPower });
  const lines = creature ? (body.moves ?? []).map(moveText) : (body.effects ?? []).map((e) => capitalised(questEffectText(e)));
  const affinity = card.affinity ?? "";
  return {
    game: "quest",
    name: card.name ?? "",
    rarity: card.rarity ?? "",
    emblem: affinity || (creature ? "" : "power card"),
    emblemName: affinity,
    kind: QUEST_KINDS[card.kind ?? ""] ?? capitalised(card.kind ?? ""),
    cost: card.rarity ? { label: "Cost", value: cardCost(card.rarity) } : null,
    stats,
    lines,
    note: card.retired ? "Retired: no longer awarded" : (entry?.evolved ?? body.evolved) ? "Evolved" : null,
  };
}

// -- TerraKard -------------------------------------------------------------------------

/** Rulebook, "Deck cost by rarity" (games/terrakard/content.py DECK_COST). */
const TK_COST: Record<string, number> = { Common: 1, Uncommon: 2, Rare: 3, Epic: 4, Legendary: 5 };

export function terrakardFace(card: { name?: string; category?: string; rarity?: string; cost?: number; atk?: number; def?: number }, finish?: string | null): Face {
  const stats: Stat[] = [];
  if (card.atk !== undefined) stats.push({ label: "ATK", value: card.atk });
  if (card.def !== undefined) stats.push({ label: "DEF", value: card.def });
  const cost = card.cost ?? TK_COST[card.rarity ?? ""];
  const category = card.category ?? "";
  return {
    game: "terrakard",
    name: card.name ?? "",
    rarity: card.rarity ?? "",
    emblem: category,
    emblemName: category || "Category hidden",
    kind: "",
    cost: cost !== undefined ? { label: "Cost", value: cost } : null,
    stats,
    lines: [],
    finish: finish ?? null,
  };
}

// -- Chronovore ------------------------------------------------------------------------

function keywordsOf(keywords: (Keyword | Schemas["CardKeyword"])[] | undefined): CardKeyword[] {
  return (keywords ?? []).map((k) => ({ keyword: k.keyword ?? "", name: k.name ?? "", definition: k.definition ?? "" }));
}

export function chronovoreFace(card: CvCard, finish?: string | null): Face {
  const monster = card.kind === "monster";
  const keywords = keywordsOf(card.keywords);
  // A reward that is a keyword (Strike, Copy the card in the opposing slot) is said once,
  // in bold among the keywords, with its definition a tap away.
  const lines = (card.rewards ?? []).map(rewardText).filter((line) => !keywords.some((k) => k.name === line));
  if (monster && card.initiative && !keywords.some((k) => k.keyword === "initiative")) lines.unshift("Initiative");
  return {
    game: "chronovore",
    name: card.name,
    rarity: card.rarity,
    emblem: card.cardClass || "neutral",
    emblemName: capitalised(card.cardClass || "neutral"),
    kind: monster ? "Monster" : card.kind === "event_card" ? "Event" : capitalised(card.kind),
    cost: monster ? null : { label: "Cost in Coins", value: card.cost ?? 0 },
    stats: monster ? [{ label: "Attack", value: card.attack ?? 0 }, { label: "Health", value: card.health ?? 0 }] : [],
    lines,
    finish: finish ?? null,
    keywords,
  };
}

/** A library or catalogue entry of Chronovore as a match card (its definition's face). */
export function chronovoreCard(entry: { name?: string; kind?: string; rarity?: string; definition?: unknown }): CvCard {
  const d = (entry.definition ?? {}) as Partial<CvCard>;
  return { ...d, name: entry.name ?? d.name ?? "", kind: entry.kind ?? "", rarity: entry.rarity ?? d.rarity ?? "", cardClass: d.cardClass ?? "neutral", rewards: d.rewards ?? [] };
}

// -- a card from a pack, in any game ---------------------------------------------------

/** A card as an opening shows it, its stats from the game's catalogue when known. */
export function openedFace(game: CardGame, card: Schemas["OpenedCard"], entry?: Catalogue | null): Face {
  if (game === "chronovore") {
    const face = chronovoreFace(chronovoreCard({ ...card, definition: entry?.definition }), card.finish);
    return card.keywords ? { ...face, keywords: keywordsOf(card.keywords) } : face;
  }
  if (game === "terrakard") {
    const d = (entry?.definition ?? {}) as { category?: string; atk?: number; def?: number };
    return terrakardFace({ name: card.name, rarity: card.rarity, category: d.category, atk: d.atk, def: d.def }, card.finish);
  }
  return { ...questFace({ ...card, affinity: entry?.affinity }, entry), finish: card.finish ?? null };
}

// -- the public catalogue, once a page -------------------------------------------------

const catalogues = new Map<CardGame, Promise<Map<string, Catalogue>>>();

/** A game's published cards by definition id (public; read once, then shared). */
export function catalogue(game: CardGame): Promise<Map<string, Catalogue>> {
  let found = catalogues.get(game);
  if (!found) {
    found = listed(api.GET("/cards/catalogue", { params: { query: { game } } })).then((items) => new Map(items.map((c) => [c.id ?? "", c])));
    // A failed read is tried again next time, not remembered.
    found.catch(() => catalogues.delete(game));
    catalogues.set(game, found);
  }
  return found;
}

/** The catalogue of ``game`` once it has come (null until then, or when it cannot be read:
 * the cards are drawn from what the screen has, without the stats it lacks). */
export function useCatalogue(game: CardGame): Map<string, Catalogue> | null {
  const [found, setFound] = useState<Map<string, Catalogue> | null>(null);
  useEffect(() => {
    let current = true;
    catalogue(game).then((read) => current && setFound(read), () => undefined);
    return () => {
      current = false;
    };
  }, [game]);
  return found;
}
