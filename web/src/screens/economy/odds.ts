/** A pack kind's public odds in words: exact fractions from the server, and percentages. */

export function fractionText(fraction: string): string {
  const [top, bottom] = fraction.split("/").map(Number);
  const value = bottom ? (top ?? 0) / bottom : (top ?? 0);
  const percent = value * 100;
  const shown = percent >= 1 ? String(Number(percent.toPrecision(3))) : percent.toPrecision(2);
  return `${fraction} (${shown}%)`;
}

export function title(word: string): string {
  return word ? word[0]!.toUpperCase() + word.slice(1).replace(/_/g, " ") : word;
}

/** The per-card rarity odds: once when every slot is the same, else slot by slot. */
export function slotGroups(slots: Record<string, string>[]): { label: string; odds: Record<string, string> }[] {
  if (slots.length === 0) return [];
  const same = slots.every((s) => JSON.stringify(s) === JSON.stringify(slots[0]));
  if (same) return [{ label: slots.length === 1 ? "The card" : `Each of the ${slots.length} cards`, odds: slots[0]! }];
  return slots.map((odds, n) => ({ label: `Card ${n + 1}`, odds }));
}
