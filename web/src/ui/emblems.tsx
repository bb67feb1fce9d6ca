/**
 * The marks a card and a screen draw: each game's emblems (a Quest affinity, a TerraKard
 * category, a Chronovore class), the rarity gems, the finishes and a few icons, as inline
 * SVG paths on a 24 × 24 grid in `currentColor`. Nothing is fetched and no emoji font is
 * needed (a phone or a test browser without one shows them all). Every mark is decoration:
 * the words beside it say the same thing (aria-hidden).
 */

interface Mark {
  /** One or more paths, drawn with the even-odd rule (holes are cut by inner paths). */
  d: string;
  /** The emblem's colour on a card (a background; the mark itself is drawn in white). */
  color: string;
}

const EMBLEMS: Record<string, Mark> = {
  // Quest affinities (games/quest/content.py, Affinity)
  wit: { color: "#0e7490", d: "M12 2a7 7 0 0 0-4 12.7V17h8v-2.3A7 7 0 0 0 12 2zM9 18.5h6V20a2 2 0 0 1-2 2h-2a2 2 0 0 1-2-2z" },
  grit: { color: "#92400e", d: "M12 2 4 5v6c0 5 3.4 9.4 8 11 4.6-1.6 8-6 8-11V5zm0 3.2 5 1.9V11c0 3.4-2.1 6.6-5 7.9z" },
  spark: { color: "#a16207", d: "M13.5 2 4 14h6.5L9 22l10-13h-6.8z" },
  spirit: { color: "#be185d", d: "M12 2c.8 4.2 6.5 6.3 6.5 12.3a6.5 6.5 0 0 1-13 0c0-3.2 2-5.4 3.2-6.5 0 2.2 1 3.4 2.3 3.7C10.6 7.8 10 5 12 2z" },
  mystic: { color: "#4338ca", d: "M14.5 2.5a9.5 9.5 0 1 0 7 15.6A8 8 0 0 1 14.5 2.5zM18 3l.9 2.1L21 6l-2.1.9L18 9l-.9-2.1L15 6l2.1-.9z" },
  // TerraKard categories (games/terrakard/content.py, Category)
  sciences: { color: "#0369a1", d: "M9 2h6v2h-1v5.2l5.8 9.6A2.1 2.1 0 0 1 18 22H6a2.1 2.1 0 0 1-1.8-3.2L10 9.2V4H9zm-1.6 15h9.2l-2.4-4h-4.4z" },
  "nature and life": { color: "#15803d", d: "M20.5 3C10 3 4 8 4 15.5c0 1.8.4 3.4 1.2 4.8l1.6-1.2c-.4-.9-.6-1.9-.6-2.9 3-4 6.8-6.8 10.8-8.2-3.9 2.1-6.8 5.2-8.4 9 1.3.6 2.8 1 4.4 1 6.2 0 8.4-6 7.5-15z" },
  geography: { color: "#a16207", d: "M2 20 9 6.5l4.2 7.6L15.5 10 22 20zm7-9.3-2.3 4.5L9 14l2.1 1.2z" },
  history: { color: "#7c2d12", d: "M6 2h12v2c0 3.8-2.7 6-4.4 8 1.7 2 4.4 4.2 4.4 8v2H6v-2c0-3.8 2.7-6 4.4-8C8.7 10 6 7.8 6 4zm2.2 18h7.6c-.3-2.2-2-3.8-3.8-5.4-1.8 1.6-3.5 3.2-3.8 5.4z" },
  "arts and culture": { color: "#a21caf", d: "M9 3h11v13a3.5 3.5 0 1 1-2-3.2V7.5h-7V17a3.5 3.5 0 1 1-2-3.2z" },
  "society and sport": { color: "#c2410c", d: "M8 11a3.2 3.2 0 1 0 0-6.4A3.2 3.2 0 0 0 8 11zm8.5 0a3 3 0 1 0 0-6 3 3 0 0 0 0 6zM1.5 20c0-3.6 2.9-6.5 6.5-6.5s6.5 2.9 6.5 6.5zm13.7 0c0-2.2-.8-4.2-2.1-5.7a5.8 5.8 0 0 1 9.4 5.7z" },
  // Chronovore classes (games/chronovore/cards.py) and Neutral
  medic: { color: "#047857", d: "M9 3h6v6h6v6h-6v6H9v-6H3V9h6z" },
  captain: { color: "#b91c1c", d: "M19 2h3v3L10.6 16.4l1.6 1.6-1.6 1.6-2.1-2.1L5 21l-2-2 3.5-3.5-2.1-2.1L6 11.8l1.6 1.6z" },
  chaplain: { color: "#6d28d9", d: "M3.5 4.5c3.2-1.2 6.4-1 8.5 1 2.1-2 5.3-2.2 8.5-1V20c-3.2-1.2-6.4-1-8.5 1-2.1-2-5.3-2.2-8.5-1zm9.5 2.7v10.6c1.6-.9 3.5-1.2 5.5-.9V6.2c-2-.3-3.9 0-5.5 1z" },
  engineer: { color: "#334155", d: "M21.3 7.3 17.6 11 14 10l-1-3.6 3.7-3.7A6 6 0 0 0 9 10.2L2.6 16.6a2 2 0 0 0 0 2.8l2 2a2 2 0 0 0 2.8 0L13.8 15a6 6 0 0 0 7.5-7.7z" },
  priest: { color: "#b45309", d: "M12 5C6 5 2 12 2 12s4 7 10 7 10-7 10-7-4-7-10-7zm0 11a4 4 0 1 1 0-8 4 4 0 0 1 0 8zm0-2a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" },
  // A Quest Power card has no affinity
  "power card": { color: "#0f766e", d: "M12 1l2.6 6.3L21 5.6l-3.2 5.9L23 15l-6.6.9.6 6.6-5-4.5-5 4.5.6-6.6L1 15l5.2-3.5L3 5.6l6.4 1.7z" },
  neutral: { color: "#4b5563", d: "M12 2 22 12 12 22 2 12zm0 4.2L6.2 12l5.8 5.8 5.8-5.8z" },
};
const UNKNOWN: Mark = { color: "#4b5563", d: "M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18z" };

export function emblemOf(name: string | null | undefined): Mark {
  return EMBLEMS[(name ?? "").toLocaleLowerCase()] ?? UNKNOWN;
}

/** The emblem of an affinity, a category or a class, in the colour it is drawn in. */
export function Emblem({ of, size = 24, class: className }: { of: string | null | undefined; size?: number; class?: string }) {
  return (
    <svg class={className} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d={emblemOf(of).d} fill="currentColor" fill-rule="evenodd" />
    </svg>
  );
}

/** An emblem in its coloured disc, beside its name (the starter's affinities). */
export function EmblemMark({ of }: { of: string }) {
  return (
    <span class="emblem-mark" style={{ background: emblemOf(of).color }}>
      <Emblem of={of} size={20} />
    </span>
  );
}

const ICONS = {
  lock: "M7 10V7a5 5 0 0 1 10 0v3h1.5A1.5 1.5 0 0 1 20 11.5v9a1.5 1.5 0 0 1-1.5 1.5h-13A1.5 1.5 0 0 1 4 20.5v-9A1.5 1.5 0 0 1 5.5 10zm2.5 0h5V7a2.5 2.5 0 0 0-5 0z",
  golden: "M12 1.5 14.3 9.7 22.5 12l-8.2 2.3L12 22.5l-2.3-8.2L1.5 12l8.2-2.3z",
  diamond: "M6 3h12l4 6-10 13L2 9zm1.2 2L4.8 8.6h4.4L10.8 5zm6 0 1.6 3.6h4.4L16.8 5zm-1.2.6L10.4 8.6h3.2zM5.6 10.6l5 6.5-2.6-6.5zm4.6 0L12 15.1l1.8-4.5zm5.8 0-2.6 6.5 5-6.5z",
  star: "M12 2.5l2.9 6.1 6.6.8-4.9 4.6 1.3 6.5L12 17.3l-5.9 3.2 1.3-6.5-4.9-4.6 6.6-.8z",
  gem: "M12 3 20 12 12 21 4 12z",
} as const;

export type IconName = keyof typeof ICONS;

/** A small mark beside words that say the same (aria-hidden). */
export function Icon({ name, size = 16, class: className }: { name: IconName; size?: number; class?: string }) {
  return (
    <svg class={className ? `icon ${className}` : "icon"} viewBox="0 0 24 24" width={size} height={size} aria-hidden="true" focusable="false">
      <path d={ICONS[name]} fill="currentColor" fill-rule="evenodd" />
    </svg>
  );
}
