/** Battle views and events in words: buttons and the action log read as sentences. */
import { moveText, type QuestEffect, questEffectText } from "../../lib/questWords";

export interface Move {
  name: string;
  type: string;
  powerCost: number;
  effects: QuestEffect[];
  conditions?: { type: string; percent?: number; status?: string }[];
}
export interface Creature {
  index?: number;
  name: string;
  affinity: string;
  hp: number;
  maxHp: number;
  power: number;
  maxPower: number;
  defeated: boolean;
  moves: Move[];
  statuses?: { poison: unknown; stun: unknown; dodge: number; reflect: unknown; modifiers: unknown[] };
}
export interface PowerCard {
  index: number;
  name: string;
  discarded: boolean;
  effects: QuestEffect[];
}
export interface Side {
  active: number | Creature | null;
  creatures?: Creature[];
  powerCards?: PowerCard[];
  creaturesLeft?: number;
  creaturesDefeated?: number;
  powerCardsInHand?: number;
  playedPowerCards?: { name: string }[];
  /** Of the opponent, while both choose: they have chosen (what stays hidden) */
  hasChosen?: boolean;
}
export interface Action {
  kind: string;
  index?: number | null;
}
export type BattleEvent = Record<string, unknown> & { type: string };

function words(code: string): string {
  return code.replace(/_/g, " ");
}

/** A Quest effect in words ("14 damage"): the card's words (ui/faces.ts). */
export function effectText(effect: QuestEffect): string {
  return questEffectText(effect);
}

/** The label of a legal action's button, from what it acts on. */
export function actionLabel(action: Action, you: Side): string {
  const creatures = you.creatures ?? [];
  const active = typeof you.active === "number" ? creatures[you.active] : null;
  const index = action.index ?? -1;
  switch (action.kind) {
    case "use_move": {
      const move = active?.moves[index];
      return move ? `Use ${moveText(move)}` : `Use move ${index + 1}`;
    }
    case "play_power_card": {
      const card = you.powerCards?.find((c) => c.index === index) ?? you.powerCards?.[index];
      return `Play ${card?.name ?? `Power card ${index + 1}`}${card?.effects.length ? `: ${card.effects.map(effectText).join("; ")}` : ""}`;
    }
    case "swap":
      return `Swap in ${creatures[index]?.name ?? `Creature ${index + 1}`}`;
    case "select_creature":
      return `Send out ${creatures[index]?.name ?? `Creature ${index + 1}`}`;
    case "forfeit":
      return "Forfeit the battle";
    case "timeout":
      return "End the turn (time is up)";
    default:
      return words(action.kind);
  }
}

/**
 * Who the log speaks for: the engine names its sides `player` and `cpu`, but against a
 * player the invited one sits `cpu`, so "you" is the view's side and "them" its opponent
 * (the computer, or the other player's pseudonym).
 */
export interface Seat {
  side: string;
  them: string;
}
export const AGAINST_THE_COMPUTER: Seat = { side: "player", them: "the computer" };

/** The seat of a battle view: its side, and the opponent's name (none: the computer). */
export function seatOf(view: { side?: string | null; opponentName?: string | null }): Seat {
  return { side: view.side ?? "player", them: view.opponentName ?? AGAINST_THE_COMPUTER.them };
}

export function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

export function possessive(name: string): string {
  return name.endsWith("s") ? `${name}'` : `${name}'s`;
}

function whose(side: unknown, seat: Seat): string {
  if (side === seat.side) return "Your";
  return side === "player" || side === "cpu" ? capital(possessive(seat.them)) : "";
}

/** A member of an event as the API sends it (camelCase), or as the engine names it. */
function member(event: BattleEvent, camel: string): unknown {
  return event[camel] ?? event[camel.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
}

function count(n: unknown, one: string, many = `${one}s`): string {
  return `${Number(n ?? 0)} ${Number(n) === 1 ? one : many}`;
}

const FINISH_REASONS: Record<string, string> = {
  all_defeated: "all defeated",
  forfeit: "forfeit",
  timeouts: "three turns missed in a row",
  missed_deadline: "a decision window was missed",
  disconnected: "away for 90 seconds",
};

/**
 * One line of the action log, told from `seat`'s side, as a sentence: "Your Quillip uses
 * Inkblot (2 Power).", "Quillip hits Burrowk for 14 — 46 HP left." `actor` is the Creature
 * or card acting (the move's user, the Power card), which a damage event does not name.
 * Empty for an event the line before already told (a dodged hit).
 */
export function describeEvent(event: BattleEvent, seat: Seat = AGAINST_THE_COMPUTER, actor = ""): string {
  const name = typeof event.name === "string" ? event.name : "";
  const who = whose(event.side, seat);
  const mine = event.side === seat.side;
  const them = capital(seat.them);
  const other = seat.side === "player" ? "cpu" : "player";
  const subject = name ? `${who} ${name}`.trim() : who || "";
  const hp = member(event, "hp");
  const amount = Number(member(event, "amount") ?? 0);
  switch (event.type) {
    case "creature_chosen":
      return `${who} Creature is chosen.`.trim();
    case "creatures_revealed": {
      const sides = (event.sides ?? {}) as Record<string, { name?: string }>;
      return `You send out ${sides[seat.side]?.name ?? "?"}; ${seat.them} sends out ${sides[other]?.name ?? "?"}.`;
    }
    case "first_turn_chosen":
      return mine ? "You go first." : `${them} goes first.`;
    case "turn_started":
      return mine ? "Your turn." : `${capital(possessive(seat.them))} turn.`;
    case "turn_ended":
      return `${who} turn ends.`;
    case "match_finished": {
      const reason = String(event.reason ?? "");
      return `The battle is over: ${event.winner === seat.side ? "you won" : `${seat.them} won`} (${FINISH_REASONS[reason] ?? words(reason)}).`;
    }
    case "move_used": {
      const move = member(event, "moveName");
      const cost = Number(member(event, "cost") ?? 0);
      return `${subject} uses ${typeof move === "string" ? move : "a move"}${cost ? ` (${cost} Power)` : ""}.`;
    }
    case "power_card_played":
      return `${mine ? "You play" : `${them} plays`} ${name}.`;
    case "swapped_in":
      return `${subject} comes in.`;
    case "creature_defeated":
      return `${subject} is defeated.`;
    case "damage":
      if (member(event, "dodged") === true) return "";
      return actor ? `${actor} hits ${name} for ${amount} — ${hp} HP left.` : `${name} takes ${amount} damage — ${hp} HP left.`;
    case "dodged":
      return `${name} dodges the attack (${count(member(event, "chargesLeft"), "dodge")} left).`;
    case "healed":
      return `${name} heals ${amount} HP — ${hp} HP now.`;
    case "lifesteal":
      return `${name} drains ${amount} HP — ${hp} HP now.`;
    case "power_changed": {
      const power = member(event, "power");
      if (amount > 0) return `${name} gains ${amount} Power (${power} now).`;
      if (amount < 0) return `${name} loses ${-amount} Power (${power} left).`;
      return `${name}'s Power stays at ${power}.`;
    }
    case "poisoned":
      return `${name} is poisoned: ${amount} damage a turn for ${count(member(event, "turns"), "turn")}.`;
    case "stunned":
      return `${name} is stunned for ${count(member(event, "turns"), "turn")}.`;
    case "dodge_added":
      return `${name} will dodge the next attack (${count(member(event, "charges"), "dodge")} ready).`;
    case "reflect_added":
      return `${name} will reflect ${Math.round(Number(member(event, "fraction") ?? 0) * 100)}% of the damage it takes.`;
    case "modifier_added": {
      const m = Number(member(event, "multiplier") ?? 1);
      const turns = member(event, "turns");
      const verb = member(event, "appliesTo") === "taken" ? "takes" : "deals";
      return `${name} ${verb} ${Math.round(Math.abs(1 - m) * 100)}% ${m > 1 ? "more" : "less"} damage${turns ? ` for ${count(turns, "turn")}` : ""}.`;
    }
    case "poison_damage":
      return `Poison hurts ${name} for ${amount} — ${hp} HP left.`;
    case "self_damage":
      return `${name} hurts itself for ${amount} — ${hp} HP left.`;
    case "reflected_damage":
      return `${name} takes ${amount} reflected damage — ${hp} HP left.`;
    case "hp_swapped":
      return `${name} now has ${hp} HP.`;
    case "effect_fizzled":
      return "An effect does nothing: its target is already defeated.";
    case "effect_ended": {
      const effect = member(event, "effect");
      if (effect === "poison") return `${name} is no longer poisoned.`;
      if (effect === "stun") return `${name} is no longer stunned.`;
      return `A damage change on ${name} wears off.`;
    }
    case "replacement_required":
      return "A defeated Creature must be replaced.";
    case "timeout":
      return member(event, "reason") === "passed" ? `${mine ? "You pass" : `${them} passes`}: the turn ends.` : `${mine ? "Your" : capital(possessive(seat.them))} time is up: the turn ends.`;
    case "deadline_missed":
      return `${mine ? "You miss" : `${them} misses`} the decision window.`;
    case "timeouts_forfeit":
      return `${mine ? "You miss" : `${them} misses`} three turns in a row: the battle is lost.`;
    case "action_ignored":
      return "That came too late: the battle had already moved on.";
    case "forfeit":
      return `${mine ? "You forfeit" : `${them} forfeits`}.`;
    case "disconnected":
      return `${mine ? "You were" : `${them} was`} away for 90 seconds.`;
    default:
      return `${subject ? `${subject}: ` : ""}${words(event.type)}.`;
  }
}

/**
 * The lines of one action's events, in order: who acts (the Creature using a move, the
 * Power card played) carries on to the damage its effects do.
 */
export function describeEvents(events: BattleEvent[], seat: Seat = AGAINST_THE_COMPUTER): string[] {
  let actor = "";
  const lines: string[] = [];
  for (const event of events) {
    if (event.type === "move_used" || event.type === "power_card_played") actor = typeof event.name === "string" ? event.name : "";
    if (event.type === "turn_started" || event.type === "turn_ended") actor = "";
    const line = describeEvent(event, seat, actor);
    if (line) lines.push(line);
  }
  return lines;
}

/** Time left in a 24-hour window, in words: hours and minutes, "no time left" at zero. */
export function leftText(seconds: number): string {
  if (seconds <= 0) return "no time left";
  const minutes = Math.ceil(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min left`;
  return rest === 0 ? `${hours} h left` : `${hours} h ${rest} min left`;
}

/** Why a match against a player ended, where the result alone does not say it. */
function reasonWords(reason: string | null | undefined, won: boolean): string {
  switch (reason) {
    case "missed_deadline":
      return " (a decision window was missed)";
    case "timeouts":
      return won ? " (your opponent missed three windows in a row)" : " (three windows missed in a row)";
    case "disconnected":
      return won ? " (your opponent was away for 90 seconds)" : " (away from the game for 90 seconds)";
    default:
      return "";
  }
}

interface StatusView {
  status?: string;
  outcome?: string | null;
  finishReason?: string | null;
  yourTurn?: boolean;
  turnNumber?: number;
  phase?: string;
  legalActions?: Record<string, unknown>[];
}

/** Where the battle stands for `seat`: the result, your decision, or whom it waits for. */
export function statusText(view: StatusView, seat: Seat = AGAINST_THE_COMPUTER): string {
  if (view.status === "finished") {
    const result = view.outcome === "victory" ? "you won" : view.outcome === "forfeit" ? "you forfeited" : "you lost";
    return `Finished: ${result}${reasonWords(view.finishReason, view.outcome === "victory")}.`;
  }
  const kinds = (view.legalActions ?? []).map((a) => a.kind);
  if (view.yourTurn) return `Your turn (turn ${view.turnNumber}).`;
  if (kinds.includes("select_creature")) return "Choose the Creature you send out first.";
  if (view.phase === "mandatory_replacement" && kinds.includes("swap")) return "Choose the Creature that replaces your defeated one.";
  return `Waiting for ${seat.them}.`;
}
