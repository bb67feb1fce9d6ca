/**
 * The signed-in player's access token, kept for this browser tab (sessionStorage), and
 * the claims the client shows (subject, roles). The server checks the token on every
 * call; nothing here grants anything.
 */

export interface Session {
  token: string;
  sub: string;
  roles: string[];
  /** Seconds since the epoch, from the token's exp. */
  expiresAt: number;
  /** "dev" or "auth0": how to sign in again. */
  via: "dev" | "auth0";
  /** This sign-in created the account: the home screen welcomes the player once. */
  welcome?: boolean;
}

const KEY = "deckyard.session";
type Listener = (session: Session | null) => void;
const listeners = new Set<Listener>();
let current: Session | null = read();

function read(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function session(): Session | null {
  return current;
}

export function setSession(next: Session | null): void {
  current = next;
  if (next) sessionStorage.setItem(KEY, JSON.stringify(next));
  else sessionStorage.removeItem(KEY);
  listeners.forEach((listener) => listener(next));
}

/** Whether to welcome a new player; true once per sign-in that created the account. */
export function takeWelcome(): boolean {
  if (!current?.welcome) return false;
  current = { ...current, welcome: false };
  sessionStorage.setItem(KEY, JSON.stringify(current));
  return true;
}

export function onSession(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The claims of a JWT, unverified (the gateway verifies; the client only reads). */
export function claimsOf(token: string): Record<string, unknown> {
  const part = token.split(".")[1] ?? "";
  const json = atob(part.replace(/-/g, "+").replace(/_/g, "/"));
  return JSON.parse(json) as Record<string, unknown>;
}

export function sessionFromToken(
  token: string,
  via: Session["via"],
  rolesClaim = "https://deckyard.dev/roles",
): Session {
  const claims = claimsOf(token);
  const roles = Array.isArray(claims[rolesClaim]) ? (claims[rolesClaim] as string[]) : [];
  return {
    token,
    sub: String(claims.sub ?? ""),
    roles: roles.map((role) => role.toLowerCase()),
    expiresAt: Number(claims.exp ?? 0),
    via,
  };
}

export function isAuthor(s: Session | null): boolean {
  return !!s && s.roles.includes("author");
}
