/**
 * A sentence for the sign-in page after a sign-out that has something to say (the account
 * was deleted). Kept in this tab's sessionStorage so that it survives Auth0's logout
 * redirect; shown once.
 */
const KEY = "deckyard.notice";

export function leaveNotice(text: string): void {
  sessionStorage.setItem(KEY, text);
}

export function takeNotice(): string | null {
  const text = sessionStorage.getItem(KEY);
  if (text) sessionStorage.removeItem(KEY);
  return text;
}
