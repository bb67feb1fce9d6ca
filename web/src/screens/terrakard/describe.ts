/** TerraKard's attack views and events in words (games/terrakard/view.py, engine.py). */
import type { TkCard } from "../../lib/terrakardRules";

export interface Terrain {
  name: string;
  atk?: Record<string, string>;
  def?: Record<string, string>;
  roundDamage?: Record<string, string>;
  knowledgeFactor?: string;
  knowledgeCap?: string | null;
  hidesCategories?: boolean;
}
export interface Reconnaissance {
  pseudonym: string;
  level: number;
  trophies: number;
  terrain: Terrain;
  categories: string[] | null;
}
export interface DeckCard extends TkCard {
  index: number;
  used: boolean;
}
export interface Face {
  name: string;
  category: string;
  rarity: string;
}
export interface RoundView {
  round: number;
  attackerCard: Face & { auto: boolean };
  defenseCard: Face & { reserve: boolean };
  toDefense: number;
  toAttacker: number;
  attackerHp: number;
  defenseHp: number;
  knowledge: boolean;
}
export interface Stake {
  difficulty: string;
  changes: string;
  right: string;
  wrong: string;
  fromRound: number;
}
export interface Question {
  round: number;
  difficulty: string;
  answered: string | null;
  prompt?: string;
  choices?: string[];
  stake?: Stake | null;
  effect?: string | null;
}
export interface TkAction {
  kind: "begin" | "play" | "answer" | "skip" | "give_up" | "timeout";
  card?: number;
  choice?: number;
}
export type TkEvent = Record<string, unknown> & { type: string };

/** "6/5" as "+20%"; "1" as "no change". */
export function fractionPercent(fraction: string): string {
  const percent = Math.round((fractionValue(fraction) - 1) * 1000) / 10;
  if (percent === 0) return "no change";
  return `${percent > 0 ? "+" : "−"}${Math.abs(percent)}%`;
}

/** What a terrain does, one sentence per effect. */
export function terrainEffects(terrain: Terrain): string[] {
  const lines: string[] = [];
  for (const [category, factor] of Object.entries(terrain.atk ?? {})) lines.push(`${category}: ATK ${fractionPercent(factor)}`);
  for (const [category, factor] of Object.entries(terrain.def ?? {})) lines.push(`${category}: DEF ${fractionPercent(factor)}`);
  for (const [round, factor] of Object.entries(terrain.roundDamage ?? {})) lines.push(`Round ${round}: damage ×${Number(fractionValue(factor))}`);
  if (terrain.knowledgeFactor && terrain.knowledgeFactor !== "1")
    lines.push(`Knowledge question: effects ×${Number(fractionValue(terrain.knowledgeFactor))}${terrain.knowledgeCap ? `, never beyond ±${Math.round(fractionValue(terrain.knowledgeCap) * 100)}%` : ""}`);
  if (terrain.hidesCategories) lines.push("The defense cards' categories are hidden");
  if (lines.length === 0) lines.push("No effect");
  return lines;
}

/** An effect as the engine states it ("3/20", "-1/20") in percent: "+15%", "−5%". */
export function signedPercent(fraction: string): string {
  const percent = Math.round(fractionValue(fraction) * 1000) / 10;
  return `${percent > 0 ? "+" : percent < 0 ? "−" : ""}${Math.abs(percent)}%`;
}

export function fractionValue(fraction: string): number {
  const [top, bottom] = fraction.split("/").map(Number);
  return (top ?? 0) / (bottom ?? 1);
}

export function starsText(stars: number): string {
  if (stars <= 0) return "no star";
  return `${"★".repeat(stars)}${"☆".repeat(3 - stars)} ${["", "One star", "Two stars", "Three stars"][stars]}`;
}

const OUTCOMES: Record<string, string> = {
  three_stars: "Victory: three stars",
  two_stars: "Victory: two stars",
  one_star: "Victory: one star",
  defeat: "Defeat",
  forfeit: "You gave up (a defeat)",
  victory: "The defense held",
};

export function outcomeText(outcome: string | null | undefined): string {
  return outcome ? (OUTCOMES[outcome] ?? outcome.replace(/_/g, " ")) : "";
}

const REASONS: Record<string, string> = {
  defense_down: "the defense had no hit points left",
  attacker_down: "the attacker had no hit points left",
  both_down: "both sides fell in the same round (the defense wins)",
  last_round: "after the last round, by hit points (a tie goes to the defense)",
  gave_up: "the attacker gave up",
};

export function reasonText(reason: string | null | undefined): string {
  return reason ? (REASONS[reason] ?? reason.replace(/_/g, " ")) : "";
}

const ANSWERED: Record<string, string> = { right: "answered right", wrong: "answered wrong", skipped: "skipped", timed_out: "not answered in time" };

function face(card: unknown): string {
  const c = (card ?? {}) as Partial<Face>;
  return `${c.name ?? "a card"} (${c.category ?? "?"}, ${c.rarity ?? "?"})`;
}

/** One sentence per engine event, as the attacker or the defender may see it. */
export function describeEvent(e: TkEvent, you: "attacker" | "defender" = "attacker"): string {
  const attacker = you === "attacker" ? "You" : "The attacker";
  switch (e.type) {
    case "round_started":
      return `Round ${e.round} of 5 begins: 20 seconds to play a card.`;
    case "card_played":
      return e.auto
        ? `Round ${e.round}: time was up, so the server played ${e.name} (the cheapest card left, without the knowledge bonus).`
        : `Round ${e.round}: ${attacker === "You" ? "you play" : "the attacker plays"} ${e.name}.`;
    case "reserve_came_in":
      return `The reserve came in (${e.trigger === "category" ? `a ${e.category} card was played` : e.trigger === "epic_or_rarer" ? "an Epic or rarer card was played" : "the defense was below half its hit points"}).`;
    case "defense_card_revealed":
      return `The defense reveals ${face(e.card)}${e.reserve ? ", its reserve" : ""}.`;
    case "question_asked":
      return `A knowledge question: 15 seconds to answer.`;
    case "question_answered":
      return `The question was ${ANSWERED[String(e.answered)] ?? e.answered}${e.effect ? `: effect ${signedPercent(String(e.effect))}` : ""}.`;
    case "round_resolved":
      return `Round ${e.number}: ${e.toDefense} damage to the defense, ${e.toAttacker} to ${attacker === "You" ? "you" : "the attacker"}. Hit points: ${attacker === "You" ? "you" : "attacker"} ${e.attackerHp}, defense ${e.defenseHp}.`;
    case "attack_finished":
      return `The attack is over: ${starsText(Number(e.stars))}; ${reasonText(String(e.reason))}.`;
    case "timeout":
      return e.phase === "reconnaissance" ? "The reconnaissance time is over." : e.phase === "question" ? "Time is up for the question." : "Time is up for the round.";
    case "gave_up":
      return `${attacker === "You" ? "You gave" : "The attacker gave"} up.`;
    case "too_late":
      return "That came too late: time had already run out.";
    case "action_ignored":
      return "That was ignored: the attack had already ended.";
    default:
      return e.type.replace(/_/g, " ");
  }
}

export function actionText(action: TkAction, deck?: DeckCard[]): string {
  switch (action.kind) {
    case "begin":
      return "Begin the attack";
    case "play":
      return `Play ${deck?.find((c) => c.index === action.card)?.name ?? `card ${(action.card ?? 0) + 1}`}`;
    case "skip":
      return "Skip the question";
    case "give_up":
      return "Give up";
    case "answer":
      return `Answer ${(action.choice ?? 0) + 1}`;
    default:
      return action.kind.replace(/_/g, " ");
  }
}
