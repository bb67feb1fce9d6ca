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

/**
 * Seconds left as a countdown shows them: to the nearest second, so that a step of 2
 * minutes starts at 2:00, not 2:01 (this browser knows the server's time within half a
 * second, the Date header's resolution, and the deadline was set when the server took the
 * request), and never more than ``limit``, the step's length, when the screen knows it.
 * What happens at the deadline still waits for ``secondsLeft`` to reach 0.
 */
export function shownSeconds(deadline: string | null | undefined, now: number = serverNow(), limit?: number): number {
  if (!deadline) return 0;
  const left = Math.max(0, Math.round((Date.parse(deadline) - now) / 1000));
  return limit === undefined ? left : Math.min(limit, left);
}

export function formatSeconds(seconds: number): string {
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  return `${m}:${String(s).padStart(2, "0")}`;
}
