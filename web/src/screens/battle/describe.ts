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

function whose(side: unknown): string {
  return side === "player" ? "Your" : side === "cpu" ? "The computer's" : "";
}

/** One line of the action log. */
export function describeEvent(event: BattleEvent): string {
  const name = typeof event.name === "string" ? event.name : "";
  const who = whose(event.side);
  const subject = name ? `${who} ${name}`.trim() : who || "";
  switch (event.type) {
    case "creature_chosen":
      return `${who} Creature was chosen.`.trim();
    case "creatures_revealed": {
      const sides = (event.sides ?? {}) as Record<string, { name?: string }>;
      return `You send out ${sides.player?.name ?? "?"}; the computer sends out ${sides.cpu?.name ?? "?"}.`;
    }
    case "first_turn_chosen":
      return event.side === "player" ? "You go first." : "The computer goes first.";
    case "turn_started":
      return event.side === "player" ? "Your turn." : "The computer's turn.";
    case "turn_ended":
      return `${who} turn ended.`;
    case "match_finished":
      return `The battle is over: ${event.winner === "player" ? "you won" : "the computer won"} (${words(String(event.reason ?? ""))}).`;
    case "power_card_played":
      return `${who} played ${name}.`;
    case "swapped_in":
      return `${subject} came in.`;
    case "creature_defeated":
      return `${subject} was defeated.`;
    case "forfeit":
      return `${who === "Your" ? "You" : "The computer"} forfeited.`;
    default: {
      const details = ["amount", "hp", "effect", "move"]
        .filter((key) => event[key] !== undefined && event[key] !== null)
        .map((key) => `${key} ${String(event[key])}`)
        .join(", ");
      return `${subject ? `${subject}: ` : ""}${words(event.type)}${details ? ` (${details})` : ""}.`;
    }
  }
}
