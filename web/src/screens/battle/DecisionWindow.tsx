/**
 * A 24-hour decision window against another player (docs/quest-pvp.md): its end from the
 * server's deadline, as a time of day and as hours and minutes left on the server's clock.
 * `who` is the other player when the match waits for them, null when it waits for you.
 */
import { useEffect, useState } from "preact/hooks";

import { secondsLeft } from "../../lib/clock";
import { untilText } from "../../ui/InvitationsLobby";
import { leftText } from "./describe";

export function DecisionWindow({ deadline, who, onExpired }: {
  deadline: string | null | undefined;
  who: string | null;
  onExpired?: () => void;
}) {
  const [left, setLeft] = useState(() => secondsLeft(deadline));
  useEffect(() => {
    setLeft(secondsLeft(deadline));
    if (!deadline) return;
    let fired = false;
    // Minutes are what a 24-hour window shows: a check every few seconds is plenty.
    const timer = setInterval(() => {
      const now = secondsLeft(deadline);
      setLeft(now);
      if (now === 0 && !fired) {
        fired = true;
        onExpired?.();
      }
    }, 5000);
    return () => clearInterval(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [deadline]);
  if (!deadline) return null;
  const until = untilText(deadline);
  return (
    <p class="countdown">
      {who === null ? "Your decision is due by " : `${who} must decide by `}
      <time dateTime={deadline}>{until}</time> ({leftText(left)}).
    </p>
  );
}
