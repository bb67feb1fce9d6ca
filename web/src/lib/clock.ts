/**
 * The server's time as this browser estimates it. Deadlines come from the server; the
 * countdown subtracts the server's "now", estimated from each answer's Date header, so a
 * wrong device clock never moves a deadline.
 */

let offsetMs = 0;

/** Records how far the server's clock is from ours (Date has a resolution of 1 s). */
export function noteServerDate(header: string | null, localNow: number = Date.now()): void {
  if (!header) return;
  const server = Date.parse(header);
  if (Number.isNaN(server)) return;
  // The header truncates to the second: the server's time is within [server, server + 1 s).
  offsetMs = server + 500 - localNow;
}

export function serverNow(localNow: number = Date.now()): number {
  return localNow + offsetMs;
}

export function resetClock(): void {
  offsetMs = 0;
}

/** Whole seconds left until the deadline (never below 0), as the countdown shows them. */
export function secondsLeft(deadline: string | null | undefined, now: number = serverNow()): number {
  if (!deadline) return 0;
  const left = Date.parse(deadline) - now;
  return left > 0 ? Math.ceil(left / 1000) : 0;
}

export function formatSeconds(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}
