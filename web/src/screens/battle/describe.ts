/** Battle views and events in words: buttons and the action log read as sentences. */

export interface Move {
  name: string;
  type: string;
  powerCost: number;
  effects: { type: string; amount?: number }[];
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
  effects: { type: string; amount?: number }[];
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

export function effectText(effect: { type: string; amount?: number }): string {
  return effect.amount !== undefined ? `${words(effect.type)} ${effect.amount}` : words(effect.type);
}

/** The label of a legal action's button, from what it acts on. */
export function actionLabel(action: Action, you: Side): string {
  const creatures = you.creatures ?? [];
  const active = typeof you.active === "number" ? creatures[you.active] : null;
  const index = action.index ?? -1;
  switch (action.kind) {
    case "use_move": {
      const move = active?.moves[index];
      if (!move) return `Use move ${index + 1}`;
      const effects = move.effects.map(effectText).join(", ");
      return `Use ${move.name} (power ${move.powerCost}${effects ? `; ${effects}` : ""})`;
    }
    case "play_power_card": {
      const card = you.powerCards?.find((c) => c.index === index) ?? you.powerCards?.[index];
      return `Play ${card?.name ?? `Power card ${index + 1}`}${card ? ` (${card.effects.map(effectText).join(", ")})` : ""}`;
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

/** One line of the action log, told from `seat`'s side. */
export function describeEvent(event: BattleEvent, seat: Seat = AGAINST_THE_COMPUTER): string {
  const name = typeof event.name === "string" ? event.name : "";
  const who = whose(event.side, seat);
  const mine = event.side === seat.side;
  const them = capital(seat.them);
  const other = seat.side === "player" ? "cpu" : "player";
  const subject = name ? `${who} ${name}`.trim() : who || "";
  switch (event.type) {
    case "creature_chosen":
      return `${who} Creature was chosen.`.trim();
    case "creatures_revealed": {
      const sides = (event.sides ?? {}) as Record<string, { name?: string }>;
      return `You send out ${sides[seat.side]?.name ?? "?"}; ${seat.them} sends out ${sides[other]?.name ?? "?"}.`;
    }
    case "first_turn_chosen":
      return mine ? "You go first." : `${them} goes first.`;
    case "turn_started":
      return mine ? "Your turn." : `${capital(possessive(seat.them))} turn.`;
    case "turn_ended":
      return `${who} turn ended.`;
    case "match_finished":
      return `The battle is over: ${event.winner === seat.side ? "you won" : `${seat.them} won`} (${words(String(event.reason ?? ""))}).`;
    case "move_used":
      return `${subject} used ${typeof event.move_name === "string" ? event.move_name : "a move"}.`;
    case "power_card_played":
      return `${mine ? "You" : them} played ${name}.`;
    case "swapped_in":
      return `${subject} came in.`;
    case "creature_defeated":
      return `${subject} was defeated.`;
    case "forfeit":
      return `${mine ? "You" : them} forfeited.`;
    case "disconnected":
      return `${mine ? "You were" : `${them} was`} away for 90 seconds.`;
    default: {
      const details = ["amount", "hp", "effect", "move"]
        .filter((key) => event[key] !== undefined && event[key] !== null)
        .map((key) => `${key} ${String(event[key])}`)
        .join(", ");
      return `${subject ? `${subject}: ` : ""}${words(event.type)}${details ? ` (${details})` : ""}.`;
    }
  }
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
