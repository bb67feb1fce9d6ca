/** Small pieces every screen uses: problems in place, loading, the countdown. */
import type { ComponentChildren } from "preact";
import { useEffect, useState } from "preact/hooks";

import { explain, type Problem, problemItems } from "../api/problems";
import { formatSeconds, secondsLeft, serverNow, shownSeconds } from "../lib/clock";

/** A refusal, announced to screen readers, with what it lists as missing. */
export function ProblemBox({ problem, title }: { problem: Problem | null; title?: string }) {
  if (!problem) return null;
  const items = problemItems(problem);
  return (
    <div class="problem" role="alert">
      <p>
        <strong>{title ?? "Not done:"}</strong> {explain(problem)}
      </p>
      {items.length > 0 && (
        <ul aria-label="What is missing or wrong">
          {items.map((item) => (
            <li key={item}>{item}</li>
          ))}
        </ul>
      )}
      <p class="code">
        Code: <code>{problem.code}</code>
      </p>
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p role="status" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/** Screen layout: one h1 per screen, focused on arrival so screen readers announce it. */
export function Screen({ title, children }: { title: string; children: ComponentChildren }) {
  useEffect(() => {
    document.title = `${title} · Deckyard`;
    document.getElementById("screen-title")?.focus();
  }, [title]);
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title" tabIndex={-1}>
        {title}
      </h1>
      {children}
    </section>
  );
}

/**
 * Seconds left until a server deadline, counted against the server's clock. It says the
 * time in words and a number, never by colour alone, and starts at the step's length
 * (2:00, not 2:01: `shownSeconds`; `limit`, the step's length in seconds, when the screen
 * knows it); `onExpired` runs once when the deadline is reached, so the screen can ask
 * the server what happened.
 */
export function Countdown({
  deadline,
  label,
  onExpired,
  limit,
}: {
  deadline: string | null | undefined;
  label: string;
  onExpired?: () => void;
  limit?: number;
}) {
  const [now, setNow] = useState(() => serverNow());
  useEffect(() => {
    setNow(serverNow());
    if (!deadline) return;
    let fired = false;
    const timer = setInterval(() => {
      const at = serverNow();
      setNow(at);
      if (secondsLeft(deadline, at) === 0 && !fired) {
        fired = true;
        onExpired?.();
      }
    }, 250);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deadline]);
  if (!deadline) return null;
  const left = shownSeconds(deadline, now, limit);
  const urgent = left <= 10;
  return (
    <p class={urgent ? "countdown urgent" : "countdown"}>
      <span>{label}: </span>
      <time dateTime={deadline} aria-label={`${label}: ${left} seconds left`}>
        {formatSeconds(left)}
      </time>
      {left === 0 ? <span> (time is up)</span> : urgent ? <span> (hurry)</span> : null}
      {/* Announce only the milestones, not every second. */}
      <span class="visually-hidden" aria-live="polite">
        {left === 30 || left === 10 || left === 0 ? `${left} seconds left` : ""}
      </span>
    </p>
  );
}
