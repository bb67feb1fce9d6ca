/** Chronovore cards, heroes and match events in words (games/chronovore/: cards, view, resolve). */

export const CLASSES = ["medic", "captain", "chaplain", "engineer", "priest"] as const;
export const CLASS_NOTES: Record<string, string> = {
  medic: "Healing and armor",
  captain: "Attacking the enemy hero with weapons and Strike",
  chaplain: "Interference with enemy cards",
  engineer: "Creating a weapon and making it stronger",
  priest: "Copying the card in the opposing slot",
  neutral: "Fits every class",
};
export const RARITIES = ["common", "uncommon", "rare", "epic", "mythic"] as const;

export interface Reward {
  type: string;
  amount?: number;
  attack?: number;
  durability?: number;
  health?: number;
  cost?: number;
  initiative?: boolean;
}
export interface Keyword {
  keyword: string;
  name: string;
  definition: string;
}
/** A card as a match or the library shows it (camelCase from the API). */
export interface CvCard {
  name: string;
  kind: string;
  cardClass: string;
  rarity: string;
  rewards: Reward[];
  attack?: number;
  health?: number;
  initiative?: boolean;
  cost?: number;
  keywords?: Keyword[];
}
export interface InPlay {
  uid: number;
  card: CvCard;
}
export interface Hero {
  health: number;
  armor: number;
  coins: number;
  strength: number;
  attack: number;
  weapon: { attack: number; durability: number } | null;
}
export interface CvAction {
  kind: "place" | "move" | "take_back" | "lock" | "forfeit";
  card?: number;
  slot?: number;
  to?: number;
}
export type CvEvent = Record<string, unknown> & { type: string };

export function title(word: string): string {
  return word ? word[0]!.toUpperCase() + word.slice(1) : word;
}

export function rewardText(r: Reward): string {
  const n = r.amount ?? 0;
  switch (r.type) {
    case "coins":
      return `+${n} Coins`;
    case "armor":
      return `+${n} Armor`;
    case "health":
      return `+${n} Health`;
    case "strength":
      return n < 0 ? `${n} Strength` : `+${n} Strength`;
    case "draw":
      return `Draw ${n}`;
    case "weapon":
      return `Weapon ${r.attack ?? 0}/${r.durability ?? 0}`;
    case "upgrade":
      return `Anvil +${r.attack ?? 0}/+${r.durability ?? 0}`;
    case "strike":
      return "Strike";
    case "copy_opposing":
      return "Copy the card in the opposing slot";
    case "next_enemy": {
      const parts = [
        r.attack ? `+${r.attack} attack` : "",
        r.health ? `+${r.health} Health` : "",
        r.initiative ? "Initiative" : "",
        r.cost ? `+${r.cost} cost` : "",
      ].filter(Boolean);
      return `The next enemy card: ${parts.join(", ")}`;
    }
    default:
      return r.type;
  }
}

/** The card's face in one line: kind, numbers, rewards. */
export function cardText(c: CvCard): string {
  const face =
    c.kind === "monster"
      ? `Monster ${c.attack ?? 0} attack, ${c.health ?? 0} Health${c.initiative ? ", Initiative" : ""}`
      : `Event, cost ${c.cost ?? 0} Coins`;
  const rewards = (c.rewards ?? []).map(rewardText).join("; ");
  return `${face}${rewards ? ` · ${rewards}` : ""}`;
}

export function heroText(h: Hero): string {
  const weapon = h.weapon ? `, weapon ${h.weapon.attack}/${h.weapon.durability}` : ", no weapon";
  return `Health ${h.health}, Armor ${h.armor}, Coins ${h.coins}, Strength ${h.strength}${weapon}`;
}

/** The other side in words: "The computer", or another player's pseudonym. */
export const COMPUTER = "The computer";

function who(seat: unknown, you: string, them: string): string {
  return seat === you ? "You" : them;
}

/** One sentence per event, from your seat (``you``); ``them`` names the other side. */
export function describeEvent(e: CvEvent, you = "player", them = COMPUTER): string {
  const by = who(e.seat, you, them);
  const card = e.card as CvCard | undefined;
  switch (e.type) {
    case "card_placed":
      return `${by} placed ${card ? card.name : "a card"} in slot ${Number(e.slot) + 1}.`;
    case "card_moved":
      return `${by} moved slot ${Number(e.slot) + 1} to slot ${Number(e.to) + 1}.`;
    case "card_taken_back":
      return `${by} took slot ${Number(e.slot) + 1} back to the hand.`;
    case "locked":
      return `${by} locked in${e.timedOut ? " (time ran out)" : ""}.`;
    case "heroes_entered":
      return `Round ${e.round}: the heroes enter.`;
    case "pair_revealed":
      return `Pair ${Number(e.slot) + 1} is revealed.`;
    case "monster_fought":
      return `${by} fought a monster (${e.attack} attack, ${e.health} Health${e.initiative ? ", Initiative" : ""}): ${e.defeated ? "defeated it" : "did not defeat it"}.`;
    case "event_resolved":
      return e.paid ? `${by} paid ${e.cost} Coins for an event.` : `${by} could not pay ${e.cost} Coins: the event does nothing.`;
    // A corner reward's event carries the reward's own type (resolve.py: "reward" is overwritten).
    case "reward":
    case "coins":
    case "armor":
    case "health":
    case "strength":
    case "draw":
    case "weapon":
    case "upgrade":
      return `${by}: ${rewardText(e as unknown as Reward)}.`;
    case "strike":
      return `${by} struck the enemy hero for ${e.damage}.`;
    case "interference":
      return `${by} made the next enemy card harder.`;
    case "nothing_to_copy":
      return `${by} had nothing to copy.`;
    case "card_drawn":
      return `${by} drew ${card ? card.name : "a card"}.`;
    case "card_copied":
      return `${by} copied ${card ? card.name : "a card"} into the hand.`;
    case "card_burned":
      return `${by} drew ${card ? card.name : "a card"} past the hand limit: discarded.`;
    case "copy_discarded":
      return `${by} copied a card past the hand limit: discarded.`;
    case "deck_empty":
      return `${by} had no card left to draw.`;
    case "round_started":
      return `Round ${e.round} of 5 begins: 2 minutes to lock in.`;
    case "duel":
      return `Both heroes stood after round 5: the duel took ${e.exchanges} exchanges.`;
    case "left":
      return `${by} left the match.`;
    case "match_finished": {
      const results = (e.results ?? {}) as Record<string, string>;
      return `The match is over: ${resultText(results[you])}.`;
    }
    default:
      return e.type.replace(/_/g, " ");
  }
}

export function resultText(result: string | null | undefined): string {
  return { win: "you won", loss: "you lost", draw: "a draw", left: "you left" }[result ?? ""] ?? (result ?? "");
}

export interface PairStep {
  slot: number;
  cards: Record<string, InPlay | null>;
  lines: string[];
  /** Each hero as the server reported it during this pair (a fight), if it did. */
  heroes: Record<string, Hero>;
}

/**
 * A resolution's events cut pair by pair (from ``heroes_entered``): what happened at each
 * slot, so the heroes can step from one pair to the next; the rest (a new round, the duel,
 * the end) comes after.
 */
export function resolutionSteps(events: CvEvent[], you = "player", them = COMPUTER): { round: number | null; pairs: PairStep[]; after: string[] } {
  const start = events.findIndex((e) => e.type === "heroes_entered");
  if (start < 0) return { round: null, pairs: [], after: [] };
  const round = Number(events[start]!.round);
  const pairs: PairStep[] = [];
  const after: string[] = [];
  let current: PairStep | null = null;
  for (const e of events.slice(start + 1)) {
    if (e.type === "pair_revealed") {
      current = { slot: Number(e.slot), cards: (e.cards ?? {}) as Record<string, InPlay | null>, lines: [], heroes: {} };
      pairs.push(current);
      continue;
    }
    if (e.type === "round_started" || e.type === "duel" || e.type === "match_finished" || e.type === "card_drawn" || e.type === "card_burned" || e.type === "deck_empty") {
      current = null;
    }
    if (current) {
      current.lines.push(describeEvent(e, you, them));
      if (e.type === "monster_fought" && e.hero) current.heroes[String(e.seat)] = e.hero as Hero;
    } else after.push(describeEvent(e, you, them));
  }
  return { round, pairs, after };
}
