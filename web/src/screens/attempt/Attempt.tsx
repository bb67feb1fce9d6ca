/**
 * An event attempt: five questions against the server's deadline. An answer is locked
 * once sent (the server keeps the first); the result and review come when all five are
 * in or time is up, the reward as soon as the cards service has granted it.
 */
import { useEffect, useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import { config } from "../../config";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Countdown, Loading, ProblemBox, Screen } from "../../ui/components";
import { Icon } from "../../ui/emblems";
import { useAction, useResource } from "../../ui/resource";

interface Option {
  id: string;
  text: string;
}
export interface Question {
  index: number;
  kind: "question" | "ordering_question";
  prompt: string;
  options: Option[];
  answer: { choice?: string; order?: string[] } | null;
}
interface ReviewEntry {
  index: number;
  yourAnswer: { choice?: string; order?: string[] } | null;
  correctAnswer: { choice?: string; order?: string[] };
  correct: boolean;
  explanation?: string;
}
interface RewardCard {
  ownedCardId: string;
  name: string;
  kind: string;
  rarity: string;
}
interface Result {
  score: number;
  review: ReviewEntry[];
  reward: { status: "pending" | "granted"; cards: RewardCard[] };
}

function textOf(q: Question, answer: { choice?: string; order?: string[] } | null | undefined): string {
  if (!answer) return "no answer";
  const byId = new Map(q.options.map((o) => [o.id, o.text]));
  if (answer.order) return answer.order.map((id, n) => `${n + 1}. ${byId.get(id) ?? id}`).join(", ");
  return byId.get(answer.choice ?? "") ?? "no answer";
}

function QuestionForm({ attemptId, q, open, onAnswered }: { attemptId: string; q: Question; open: boolean; onAnswered: () => void }) {
  const [choice, setChoice] = useState<string>("");
  const [order, setOrder] = useState<string[]>(() => q.options.map((o) => o.id));
  const action = useAction();
  const legend = `Question ${q.index + 1} of 5: ${q.prompt}`;
  if (q.answer) {
    return (
      <fieldset disabled>
        <legend>{legend}</legend>
        <p><Icon name="lock" /> Locked: {textOf(q, q.answer)}</p>
      </fieldset>
    );
  }
  const send = () =>
    action.run(async () => {
      await unwrap(
        api.PUT("/quest/attempts/{attempt_id}/answers/{index}", {
          params: { path: { attempt_id: attemptId, index: q.index } },
          body: q.kind === "ordering_question" ? { order } : { choice },
        }),
      );
      onAnswered();
    });
  const byId = new Map(q.options.map((o) => [o.id, o.text]));
  const move = (from: number, to: number) => {
    const next = [...order];
    const [item] = next.splice(from, 1);
    if (item !== undefined) next.splice(to, 0, item);
    setOrder(next);
  };
  return (
    <form onSubmit={(e) => { e.preventDefault(); void send(); }}>
      <fieldset disabled={!open || action.busy}>
        <legend>{legend}</legend>
        {q.kind === "ordering_question" ? (
          <ol aria-label="Your order">
            {order.map((id, n) => (
              <li key={id}>
                {byId.get(id)}{" "}
                <button type="button" disabled={n === 0} onClick={() => move(n, n - 1)} aria-label={`Move ${byId.get(id)} up`}>↑</button>
                <button type="button" disabled={n === order.length - 1} onClick={() => move(n, n + 1)} aria-label={`Move ${byId.get(id)} down`}>↓</button>
              </li>
            ))}
          </ol>
        ) : (
          q.options.map((o) => (
            <label key={o.id} class="choice">
              <input type="radio" name={`q${q.index}`} value={o.id} checked={choice === o.id} onChange={() => setChoice(o.id)} />
              {o.text}
            </label>
          ))
        )}
        <button type="submit" disabled={q.kind === "question" && !choice}>
          Lock answer {q.index + 1}
        </button>
        <p class="note">An answer cannot be changed once locked.</p>
      </fieldset>
      <ProblemBox problem={action.problem} title="Answer not taken:" />
    </form>
  );
}

function Review({ questions, result }: { questions: Question[]; result: Result }) {
  return (
    <section aria-labelledby="review-title">
      <h2 id="review-title">Result: {result.score} of 5 correct</h2>
      <ol class="review">
        {result.review.map((entry) => {
          const q = questions[entry.index];
          if (!q) return null;
          return (
            <li key={entry.index}>
              <p><strong>{q.prompt}</strong></p>
              <p>{entry.correct ? "✓ Correct" : "✗ Not correct"}: you answered {textOf(q, entry.yourAnswer)}.</p>
              {!entry.correct && <p>The answer: {textOf(q, entry.correctAnswer)}.</p>}
              {entry.explanation && <p class="note">{entry.explanation}</p>}
            </li>
          );
        })}
      </ol>
      <h2>Reward</h2>
      {result.reward.status === "pending" ? (
        <p role="status">Your reward is being granted…</p>
      ) : result.reward.cards.length === 0 ? (
        <p>No card this time (three correct answers win one).</p>
      ) : (
        <ul aria-label="Cards won">
          {result.reward.cards.map((c) => (
            <li key={c.ownedCardId}>{c.name} ({c.rarity})</li>
          ))}
        </ul>
      )}
      <p><a href={href({ name: "collection" })}>See your collection</a></p>
    </section>
  );
}

export function Attempt({ id }: { id: string }) {
  const attempt = useResource(() => unwrap(api.GET("/quest/attempts/{attempt_id}", { params: { path: { attempt_id: id } } })), [id]);
  const data = attempt.data;
  const result = data?.result as Result | undefined;
  // Until the reward is granted, or while the attempt runs, refresh on push or poll.
  useLive(() => {
    if (!data || data.status === "active" || result?.reward?.status === "pending") void attempt.reload();
  }, ["AttemptCompleted", "RewardGranted", "attempt", "reward"]);
  // The push that the reward is granted can come before challenge has recorded it (both
  // hear RewardGranted at once), and then no push follows: while it is pending, ask again.
  const pending = result?.reward?.status === "pending";
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(() => void attempt.reload(), config().pollSeconds * 1000);
    return () => clearTimeout(timer);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [pending, data]);
  if (attempt.loading) return <Screen title="Challenge"><Loading what="the challenge" /></Screen>;
  const questions = (data?.questions ?? []) as unknown as Question[];
  const open = data?.status === "active";
  return (
    <Screen title="Challenge">
      <ProblemBox problem={attempt.problem} />
      {data && (
        <>
          <p>Status: {open ? "in progress" : data.status}</p>
          {open && <Countdown deadline={data.deadline} label="Time left" onExpired={() => void attempt.reload()} />}
          {questions.map((q) => (
            <QuestionForm key={q.index} attemptId={id} q={q} open={open} onAnswered={() => void attempt.reload()} />
          ))}
          {result && <Review questions={questions} result={result} />}
        </>
      )}
    </Screen>
  );
}
