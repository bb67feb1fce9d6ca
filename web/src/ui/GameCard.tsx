/**
 * One card component for the three games: a card drawn from its data (ui/faces.ts makes
 * a `Face` from each game's API types). The frame's colour and its gems say the rarity,
 * the emblem the affinity, category or class, the cost sits in the top corner and the
 * stats along the bottom, where a player looks for them, and a Golden or Diamond finish
 * shines. Everything is drawn in CSS and inline SVG (card.css, emblems.tsx): no image is
 * fetched.
 *
 * Words carry what colours and marks show: a card is an `<article>` named by the card's
 * name (browser tests and screen readers find it by role and name), and its cost, kind,
 * rarity, finish and stats are text. `CardFace` holds the face alone, in phrasing content
 * only, so a screen can put it inside a button (a card in a match's hand); its keywords
 * (screens/chronovore/Keywords.tsx: each bold, its definition a tap away) then go beside
 * the button.
 */
import "./card.css";

import type { ComponentChildren } from "preact";

import { Keywords } from "../screens/chronovore/Keywords";
import { Emblem, emblemOf, Icon } from "./emblems";

export type CardGame = "quest" | "terrakard" | "chronovore";

export interface Stat {
  /** As the game's rulebook names it: "HP", "ATK", "Health" */
  label: string;
  value: number | string;
}

export interface CardKeyword {
  keyword: string;
  name: string;
  definition: string;
}

/** A card as the component draws it: every field already in words. */
export interface Face {
  game: CardGame;
  name: string;
  /** As the API spells it ("Rare", "rare"): the frame, the gems and the word */
  rarity: string;
  /** The affinity, category or class the emblem shows ("Wit", "History", "medic") */
  emblem: string;
  /** Its name in words ("Wit", "History", "Medic") */
  emblemName: string;
  /** "Creature", "Power card", "Monster", "Event", "Article" */
  kind: string;
  /** The number in the top corner and what it counts ("Cost", "Coins") */
  cost?: { label: string; value: number } | null;
  stats: Stat[];
  /** Moves, effects or rewards, one line each */
  lines: string[];
  /** "plain", "golden", "diamond", "standard": shown when known */
  finish?: string | null;
  keywords?: CardKeyword[];
  /** A short remark under the rarity: "Retired", "Evolved" */
  note?: string | null;
}

/** Each game's rarities from the most common up: the gems a rarity shows. */
const RARITY_ORDER: Record<CardGame, string[]> = {
  quest: ["common", "rare", "epic", "legendary"],
  terrakard: ["common", "uncommon", "rare", "epic", "legendary"],
  chronovore: ["common", "uncommon", "rare", "epic", "mythic"],
};

export function rarityRank(game: CardGame, rarity: string): number {
  return RARITY_ORDER[game].indexOf(rarity.toLocaleLowerCase()) + 1;
}

export function capitalised(word: string): string {
  return word ? word.charAt(0).toUpperCase() + word.slice(1) : word;
}

const SHINY = new Set(["golden", "diamond"]);

function Gems({ count }: { count: number }) {
  if (count < 1) return null;
  return (
    <span class="gcard-gems" aria-hidden="true">
      {Array.from({ length: count }, (_, n) => <Icon key={n} name="gem" size={9} />)}
    </span>
  );
}

function faceClasses(face: Face, extra: string): string {
  const finish = (face.finish ?? "").toLocaleLowerCase();
  return [
    extra,
    `gcard--${face.game}`,
    `gcard--${face.rarity.toLocaleLowerCase() || "unknown"}`,
    SHINY.has(finish) ? `gcard--${finish}` : "",
  ]
    .filter(Boolean)
    .join(" ");
}

/**
 * The face alone, in spans and SVG (valid inside a button). Its text reads in order:
 * the cost, the name, the emblem and kind, the rarity and finish, the lines, the stats.
 */
export function CardFace({ face }: { face: Face }) {
  const finish = (face.finish ?? "").toLocaleLowerCase();
  return (
    <span class="gcard-face" style={{ "--emblem": emblemOf(face.emblem).color }}>
      <span class="gcard-head">
        {face.cost && (
          <span class="gcard-cost" title={face.cost.label}>
            <span class="visually-hidden">{face.cost.label} </span>
            {face.cost.value}
          </span>
        )}{" "}
        <span class="gcard-name">{face.name}</span>
      </span>{" "}
      <span class="gcard-art">
        <Emblem of={face.emblem} size={40} />
        {SHINY.has(finish) && <Icon name={finish === "golden" ? "golden" : "diamond"} size={16} class="gcard-shine" />}
      </span>{" "}
      <span class="gcard-type">{[face.emblemName, face.kind].filter(Boolean).join(" · ")}</span>{" "}
      <span class="gcard-rarity">
        <Gems count={rarityRank(face.game, face.rarity)} /> {capitalised(face.rarity)}
        {face.finish ? ` · ${capitalised(face.finish)}` : ""}
      </span>
      {face.note && <> <span class="gcard-note">{face.note}</span></>}
      {face.lines.length > 0 && (
        <>
          {" "}
          <span class="gcard-text">
            {face.lines.map((line, n) => (
              <span key={n} class="gcard-line">{line}{" "}</span>
            ))}
          </span>
        </>
      )}
      {face.stats.length > 0 && (
        <>
          {" "}
          <span class="gcard-stats">
            {face.stats.map((s) => (
              <span key={s.label} class="gcard-stat">
                <span class="gcard-stat-label">{s.label}</span> <span class="gcard-stat-value">{s.value}</span>{" "}
              </span>
            ))}
          </span>
        </>
      )}
    </span>
  );
}

/**
 * A card: its face, its keywords, then whatever the screen adds under it (how many you
 * own, Add and Remove buttons). `label` names it when the name alone is not enough
 * ("Round 1: Eiffel Tower").
 */
export function GameCard({ face, label, compact = false, children }: { face: Face; label?: string; compact?: boolean; children?: ComponentChildren }) {
  return (
    <article class={faceClasses(face, compact ? "gcard gcard--compact" : "gcard")} aria-label={label ?? face.name}>
      <CardFace face={face} />
      <CardKeywords face={face} />
      {children && <div class="gcard-extra">{children}</div>}
    </article>
  );
}

/** A face's keywords, each bold with its definition a tap away (Keywords; none, nothing). */
export function CardKeywords({ face }: { face: Face }) {
  return <Keywords keywords={face.keywords} of={face.name} />;
}

/** The classes a card-shaped button takes around a `CardFace` (a card in a hand). */
export function cardButtonClass(face: Face, compact = true): string {
  return faceClasses(face, compact ? "gcard gcard--button gcard--compact" : "gcard gcard--button");
}

/** Cards side by side: two columns on a 360 px phone, more on a wider screen. */
export function CardGrid({ label, labelledBy, children, ordered = false }: { label?: string; labelledBy?: string; children: ComponentChildren; ordered?: boolean }) {
  const List = ordered ? "ol" : "ul";
  return (
    <List class="card-grid" aria-label={label} aria-labelledby={labelledBy}>
      {children}
    </List>
  );
}
