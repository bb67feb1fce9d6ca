/**
 * The review queue: content in review that another Author submitted, oldest first (your own
 * submissions are never in it: approving them is someone else's). Tick what you have read
 * and approve it in one batch; each item is approved or refused on its own, in words, and
 * a batch whose answer was lost is sent again with the same key, so nothing is approved
 * twice.
 */
import { useState } from "preact/hooks";

import { api, idempotencyKey, type Schemas, unwrap } from "../../api/client";
import { explain } from "../../api/problems";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { GAME_NAMES } from "./lifecycle";

type Content = Schemas["Content"];
type Outcome = Schemas["ApprovalOutcome"];
type Batch = { key: string; items: { id: string; expectedVersion: number }[] };

const PAGE = 50;
const MAX_BATCH = 100; // the API's bound on a batch (ApproveBatchRequest)

function titleOf(c: Content): string {
  const body = (c.body ?? {}) as Record<string, unknown>;
  return String(body.name ?? body.title ?? body.prompt ?? body.card ?? c.id);
}

function describe(c: Content): string {
  return `${(c.kind ?? "").replace(/_/g, " ")}, ${GAME_NAMES[c.game ?? ""] ?? c.game}, version ${c.version}, submitted by ${c.submittedBy}`;
}

// The stylesheet widens every input but a radio to the column; a tick box keeps its size.
const CHECKBOX = { width: "auto" };

export function ReviewQueue() {
  const [pages, setPages] = useState(1);
  const queue = useResource(async () => {
    const items: Content[] = [];
    let cursor: string | undefined;
    let next: string | null = null;
    for (let n = 0; n < pages; n++) {
      const page = await unwrap(api.GET("/authoring/review-queue", { params: { query: { limit: PAGE, ...(cursor ? { cursor } : {}) } } }));
      items.push(...page.items);
      next = page.next;
      if (!next) break;
      cursor = next;
    }
    return { items, more: next !== null };
  }, [pages]);
  const [picked, setPicked] = useState<Set<string>>(new Set());
  const [outcomes, setOutcomes] = useState<{ outcome: Outcome; title: string }[]>([]);
  const [unsent, setUnsent] = useState<Batch | null>(null); // its answer was lost: send it again
  const action = useAction();
  const shown = queue.data?.items ?? [];
  const chosen = shown.filter((c) => c.id && picked.has(c.id));
  const titles = new Map(shown.map((c) => [c.id ?? "", titleOf(c)]));

  const send = (batch: Batch) =>
    action.run(async () => {
      setUnsent(batch);
      const answer = await unwrap(
        api.POST("/authoring/review-queue/approvals", { params: { header: { "Idempotency-Key": batch.key } }, body: { items: batch.items } }),
      );
      setUnsent(null);
      setOutcomes(answer.items.map((outcome) => ({ outcome, title: titles.get(outcome.id) ?? outcome.id })));
      setPicked(new Set());
      await queue.reload();
    });
  const approve = () => {
    setOutcomes([]);
    void send({ key: idempotencyKey(), items: chosen.map((c) => ({ id: c.id ?? "", expectedVersion: c.version ?? 0 })) });
  };
  const toggle = (id: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(id);
    else next.delete(id);
    setPicked(next);
  };
  const everyShown = shown.length > 0 && shown.every((c) => picked.has(c.id ?? ""));
  const why =
    chosen.length === 0
      ? "Tick the items you have read to approve them."
      : chosen.length > MAX_BATCH
        ? `A batch approves at most ${MAX_BATCH}: untick ${chosen.length - MAX_BATCH}.`
        : "";
  const approved = outcomes.filter((o) => o.outcome.outcome === "approved").length;

  return (
    <Screen title="Review queue">
      <p>
        Content in review that another Author submitted, oldest first. Open an item to read it whole; approve what you
        have read. <a href={href({ name: "author" })}>All content</a>
      </p>
      {outcomes.length > 0 && (
        <section aria-labelledby="outcomes-title" role="status">
          <h2 id="outcomes-title">{`${approved} approved, ${outcomes.length - approved} not approved`}</h2>
          <ul aria-label="What happened to each item" class="events">
            {outcomes.map(({ outcome, title }) => (
              <li key={outcome.id} style={{ overflowWrap: "anywhere" }}>
                {outcome.outcome === "approved" ? (
                  <>Approved: <a href={href({ name: "content", id: outcome.id })}>{title}</a> (now version {outcome.version}).</>
                ) : (
                  <>
                    Not approved: <a href={href({ name: "content", id: outcome.id })}>{title}</a>.{" "}
                    {outcome.problem ? explain({ status: outcome.problem.status ?? 0, code: outcome.problem.code ?? "unexpected_answer", detail: outcome.problem.detail }) : ""}
                  </>
                )}
              </li>
            ))}
          </ul>
        </section>
      )}
      {queue.loading && <Loading what="the review queue" />}
      <ProblemBox problem={queue.problem} />
      {!queue.loading && shown.length === 0 && !queue.problem && <p>Nothing waits for your review.</p>}
      {shown.length > 0 && (
        <>
          <label class="choice">
            <input type="checkbox" style={CHECKBOX} checked={everyShown} onChange={(e) => setPicked(e.currentTarget.checked ? new Set(shown.map((c) => c.id ?? "")) : new Set())} />
            Tick every item shown ({shown.length})
          </label>
          <ul aria-label="Waiting for your review" class="events">
            {shown.map((c) => (
              <li key={c.id} style={{ overflowWrap: "anywhere" }}>
                <label class="choice">
                  <input type="checkbox" style={CHECKBOX} checked={picked.has(c.id ?? "")} aria-describedby={`about-${c.id}`} onChange={(e) => toggle(c.id ?? "", e.currentTarget.checked)} />
                  <span>{titleOf(c)}</span>
                </label>
                <p id={`about-${c.id}`} class="note">
                  {describe(c)}. <a href={href({ name: "content", id: c.id ?? null })} aria-label={`Open ${titleOf(c)}`}>Open</a>
                </p>
              </li>
            ))}
          </ul>
          {queue.data?.more && (
            <button type="button" onClick={() => setPages(pages + 1)}>Show more</button>
          )}
          <div class="actions">
            <button type="button" disabled={action.busy || !!why} aria-describedby={why ? "approve-why" : undefined} onClick={approve}>
              Approve selected ({chosen.length})
            </button>
            {why && <span id="approve-why" class="note">{why}</span>}
          </div>
        </>
      )}
      <ProblemBox problem={action.problem} title="Not sent:" />
      {unsent && action.problem && !action.busy && (action.problem.status === 0 || action.problem.status >= 500) && (
        <p>
          The answer did not arrive, so some items may have been approved.{" "}
          <button type="button" onClick={() => void send(unsent)}>Send the same batch again</button> (it is approved once,
          whatever happened).
        </p>
      )}
    </Screen>
  );
}
