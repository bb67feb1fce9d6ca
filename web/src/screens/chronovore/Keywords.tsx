/**
 * A card's keywords (rulebook: "Bold words on a card are keywords. Rest on the card to read
 * the definition."): each one bold, its definition a tap away (a phone has no hover: a
 * <details> opens on a tap, a click or the keyboard; a mouse resting on it shows it as
 * well). The server sends each card with its keywords and their definitions
 * (games/chronovore/content.py, KEYWORDS); the client only shows them.
 */
import type { Keyword } from "./describe";

export function Keywords({ keywords, of }: { keywords?: Keyword[]; of: string }) {
  if (!keywords?.length) return null;
  return (
    <ul class="keywords" aria-label={`Keywords of ${of}`}>
      {keywords.map((k) => (
        <li key={k.keyword}>
          <details class="keyword">
            <summary title={k.definition}>
              <strong>{k.name}</strong>
            </summary>
            <p>{k.definition}</p>
          </details>
        </li>
      ))}
    </ul>
  );
}
