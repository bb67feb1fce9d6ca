/**
 * A sentence for the sign-in page after a sign-out that has something to say (the account
 * was deleted, or is locked while its deletion runs). Kept in this tab's sessionStorage so
 * that it survives Auth0's logout redirect; shown once. A sign-in page already on screen
 * hears of a new one (a sign-in refused for the account's state leaves one there).
 */
const KEY = "deckyard.notice";
const listeners = new Set<() => void>();

/** What the sign-in page says when the server refuses the account itself (problem codes). */
export const ACCOUNT_NOTICES: Record<string, string> = {
  account_deleted:
    "This account was deleted: its cards, decks and matches are gone, and its sign-in cannot open a new account for 30 days after the deletion. To play now, sign in with another identity.",
  account_locked:
    "This account is locked: its deletion is under way, and once it completes its cards, decks and matches are gone. It cannot be used meanwhile; to play, sign in with another identity.",
};

/** The sign-in page's sentence for a problem body that refuses the account, else null. */
export function accountNotice(problem: unknown): string | null {
  if (!problem || typeof problem !== "object") return null;
  const code = (problem as { code?: unknown }).code;
  if (typeof code !== "string" || !Object.hasOwn(ACCOUNT_NOTICES, code)) return null;
  return ACCOUNT_NOTICES[code] ?? null;
}

export function leaveNotice(text: string): void {
  sessionStorage.setItem(KEY, text);
  listeners.forEach((listener) => listener());
}

export function takeNotice(): string | null {
  const text = sessionStorage.getItem(KEY);
  if (text) sessionStorage.removeItem(KEY);
  return text;
}

/** Called after each `leaveNotice`; returns the unsubscribe. */
export function onNotice(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
