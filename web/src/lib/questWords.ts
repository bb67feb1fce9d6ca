/**
 * Quest's effects, conditions and moves in words (games/quest/vocabulary.py, as the API
 * sends them in camelCase): a card's face and a battle's buttons say them the same way.
 */

/** A Quest effect as the catalogue and a battle view send it (camelCase). */
export interface QuestEffect {
  type: string;
  amount?: number;
  target?: string;
  appliesTo?: string;
  multiplier?: number;
  turns?: number;
  charges?: number;
  fraction?: number;
}
export interface QuestCondition {
  type: string;
  percent?: number;
  status?: string;
}
export interface QuestMove {
  name: string;
  type?: string;
  powerCost?: number;
  effects?: QuestEffect[];
  conditions?: QuestCondition[];
}

function plural(count: number | undefined, one: string, many = `${one}s`): string {
  const n = count ?? 0;
  return `${n} ${n === 1 ? one : many}`;
}

function percent(fraction: number | undefined): string {
  return `${Math.round((fraction ?? 0) * 100)}%`;
}

/** A Quest effect in words: "14 damage", "the opponent deals 20% less damage for 1 turn". */
export function questEffectText(e: QuestEffect): string {
  const n = e.amount ?? 0;
  switch (e.type) {
    case "damage":
      return `${n} damage`;
    case "heal":
      return `heal ${n} HP`;
    case "power_change":
      if (e.target === "opponent") return n < 0 ? `the opponent loses ${-n} Power` : `the opponent gains ${n} Power`;
      return n < 0 ? `lose ${-n} Power` : `+${n} Power`;
    case "power_restore":
      return `+${n} Power`;
    case "damage_modifier": {
      const m = e.multiplier ?? 1;
      const change = `${Math.round(Math.abs(1 - m) * 100)}% ${m > 1 ? "more" : "less"} damage`;
      const span = e.turns ? ` for ${plural(e.turns, "turn")}` : e.charges ? ` (${plural(e.charges, "time")})` : "";
      const taken = e.appliesTo === "taken";
      return e.target === "opponent" ? `the opponent ${taken ? "takes" : "deals"} ${change}${span}` : `${taken ? "take" : "deal"} ${change}${span}`;
    }
    case "poison":
      return `poison: ${n} damage a turn for ${plural(e.turns, "turn")}`;
    case "stun":
      return `stun for ${plural(e.turns, "turn")}`;
    case "dodge":
      return e.charges === 1 ? "dodge the next attack" : `dodge the next ${e.charges ?? 0} attacks`;
    case "reflect":
      return `reflect ${percent(e.fraction)} of the damage taken${e.charges ? ` (${plural(e.charges, "time")})` : ""}`;
    case "lifesteal":
      return `heal ${percent(e.fraction)} of the damage dealt`;
    case "self_damage":
      return `${n} damage to itself`;
    case "hp_percentage_swap":
      return "swap HP shares with the opponent";
    default:
      return e.type.replace(/_/g, " ");
  }
}

export function conditionText(c: QuestCondition): string {
  switch (c.type) {
    case "once_per_match":
      return "once a battle";
    case "hp_at_most_percent":
      return `at ${c.percent ?? 0}% HP or less`;
    case "hp_at_least_percent":
      return `at ${c.percent ?? 0}% HP or more`;
    case "opponent_has_status":
      return `when the opponent is ${c.status ?? ""}`;
    default:
      return c.type.replace(/_/g, " ");
  }
}

/** A move in one line: "Inkblot (2 Power): 14 damage; the opponent deals 20% less…". */
export function moveText(m: QuestMove): string {
  const effects = (m.effects ?? []).map(questEffectText).join("; ");
  const when = (m.conditions ?? []).map(conditionText).join(", ");
  return `${m.name} (${m.powerCost ?? 0} Power${when ? `, ${when}` : ""})${effects ? `: ${effects}` : ""}`;
}
