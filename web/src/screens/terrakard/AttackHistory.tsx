/**
 * Your attacks (the tutorial too), newest first, a page at a time from the server's cursor
 * (`GET /terrakard/attacks`): against whom, when, and how it ended (the stars in words); each
 * opens the attack's own page, where a finished one can be watched again round by round.
 */
import { useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { outcomeText } from "./describe";

type AttackSummary = Schemas["AttackSummary"];

/** Whom an attack was against (the link's words). */
export function attackTarget(attack: AttackSummary): string {
  return attack.mode === "tutorial" ? `${attack.defender} (the tutorial)` : (attack.defender ?? "");
}

/** How an attack ended (its outcome says the stars), or that it is under way. */
export function attackResult(attack: AttackSummary): string {
  if (attack.status !== "finished") return `under way, round ${attack.roundsPlayed ?? 0} of 5 played`;
  const rounds = attack.roundsPlayed === 1 ? "1 round" : `${attack.roundsPlayed ?? 0} rounds`;
  return `${outcomeText(attack.outcome)}, ${rounds}`;
}

export function AttackHistory() {
  const first = useResource(() => unwrap(api.GET("/terrakard/attacks", { params: { query: { limit: 20 } } })));
  const [more, setMore] = useState<{ items: AttackSummary[]; next: string | null }>({ items: [], next: null });
  const action = useAction();
  useLive(() => {
    setMore({ items: [], next: null });
    void first.reload();
  }, ["match"]);
  const items = [...(first.data?.items ?? []), ...more.items];
  const next = more.items.length ? more.next : (first.data?.next ?? null);
  const loadMore = () =>
    action.run(async () => {
      if (!next) return;
      const page = await unwrap(api.GET("/terrakard/attacks", { params: { query: { limit: 20, cursor: next } } }));
      setMore({ items: [...more.items, ...(page.items ?? [])], next: page.next ?? null });
    });
  return (
    <Screen title="Your attacks">
      {first.loading && <Loading what="your attacks" />}
      <ProblemBox problem={first.problem} />
      {first.data && items.length === 0 && (
        <p>You have not attacked yet. <a href={href({ name: "tk_arena" })}>Go to the arena</a>.</p>
      )}
      <ul class="menu" aria-label="Your attacks, newest first">
        {items.map((attack) => (
          <li key={attack.id}>
            <a href={href({ name: "tk_attack", id: attack.id ?? "" })}>{attackTarget(attack)}</a>
            {attack.createdAt ? `, ${new Date(attack.createdAt).toLocaleString()}` : ""}: {attackResult(attack)}
          </li>
        ))}
      </ul>
      {next && <button type="button" disabled={action.busy} onClick={() => void loadMore()}>Show older attacks</button>}
      <ProblemBox problem={action.problem} />
    </Screen>
  );
}
