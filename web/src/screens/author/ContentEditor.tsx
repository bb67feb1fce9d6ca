/**
 * One piece of content: its body (edited as JSON while a draft), the lifecycle moves its
 * state allows, and its audit trail. Every write sends the version shown; a refusal is
 * shown in place: what readiness found missing, or that someone changed it first.
 */
import { useEffect, useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import type { Problem } from "../../api/problems";
import { navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { GAME_NAMES, KINDS_BY_GAME, movesFrom, STATE_NAMES } from "./lifecycle";

type ContentState = Schemas["TransitionRequest"]["to"];

function parseBody(text: string): Record<string, unknown> {
  const value: unknown = JSON.parse(text);
  if (!value || typeof value !== "object" || Array.isArray(value)) throw new Error("The body must be a JSON object.");
  return value as Record<string, unknown>;
}

function invalidJson(error: unknown): Problem {
  return { status: 0, code: "invalid_json_body", detail: (error as Error).message };
}

function StaleNotice({ problem, reload }: { problem: Problem | null; reload: () => void }) {
  if (problem?.code !== "stale_version") return null;
  return (
    <p>
      Another Author (or another tab) moved this content on after you opened it, so your change was not applied.{" "}
      <button type="button" onClick={reload}>Load the current version</button> and decide again.
    </p>
  );
}

function NewContent() {
  const [game, setGame] = useState("quest");
  const [kind, setKind] = useState("question");
  const [text, setText] = useState("{\n  \n}");
  const [problem, setProblem] = useState<Problem | null>(null);
  const action = useAction();
  return (
    <Screen title="New content">
      <form
        onSubmit={(e) => {
          e.preventDefault();
          let body: Record<string, unknown>;
          try {
            body = parseBody(text);
            setProblem(null);
          } catch (error) {
            setProblem(invalidJson(error));
            return;
          }
          void action.run(async () => {
            const created = await unwrap(api.POST("/authoring/content", { body: { kind, game, body, replaces: null } }));
            navigate({ name: "content", id: created.id ?? null });
          });
        }}
      >
        <label for="new-game">Game</label>
        <select
          id="new-game"
          value={game}
          onChange={(e) => {
            const chosen = e.currentTarget.value;
            setGame(chosen);
            setKind(KINDS_BY_GAME[chosen]?.[0] ?? "");
          }}
        >
          {Object.keys(KINDS_BY_GAME).map((g) => <option key={g} value={g}>{GAME_NAMES[g] ?? g}</option>)}
        </select>
        <label for="new-kind">Kind</label>
        <select id="new-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {(KINDS_BY_GAME[game] ?? []).map((k) => <option key={k} value={k}>{k.replace(/_/g, " ")}</option>)}
        </select>
        <label for="new-body">Body (JSON, camelCase)</label>
        <textarea id="new-body" rows={14} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        <button type="submit" disabled={action.busy}>Create draft</button>
        <ProblemBox problem={problem ?? action.problem} title="Not created:" />
      </form>
    </Screen>
  );
}

export function ContentEditor({ id }: { id: string | null }) {
  if (!id) return <NewContent />;
  return <ExistingContent id={id} />;
}

function ExistingContent({ id }: { id: string }) {
  const content = useResource(() => unwrap(api.GET("/authoring/content/{content_id}", { params: { path: { content_id: id } } })), [id]);
  const audit = useResource(() => unwrap(api.GET("/authoring/content/{content_id}/audit", { params: { path: { content_id: id } } })), [id]);
  const [text, setText] = useState("");
  const [reason, setReason] = useState("");
  const [jsonProblem, setJsonProblem] = useState<Problem | null>(null);
  const edit = useAction();
  const move = useAction();
  useEffect(() => {
    if (content.data) setText(JSON.stringify(content.data.body ?? {}, null, 2));
  }, [content.data]);
  const reload = () => {
    edit.clear();
    move.clear();
    void content.reload();
    void audit.reload();
  };
  if (content.loading) return <Screen title="Content"><Loading what="the content" /></Screen>;
  const c = content.data;
  if (!c) return <Screen title="Content"><ProblemBox problem={content.problem} /></Screen>;
  const state = c.state ?? "";
  const isDraft = state === "draft";
  const save = () => {
    let body: Record<string, unknown>;
    try {
      body = parseBody(text);
      setJsonProblem(null);
    } catch (error) {
      setJsonProblem(invalidJson(error));
      return;
    }
    move.clear(); // one refusal at a time: the one for what was just tried
    void edit.run(async () => {
      content.set(await unwrap(api.PUT("/authoring/content/{content_id}", { params: { path: { content_id: id } }, body: { expectedVersion: c.version ?? 0, body } })));
      void audit.reload();
    });
  };
  const transition = (to: string, needsReason: boolean) => {
    edit.clear();
    return move.run(async () => {
      content.set(
        await unwrap(
          api.POST("/authoring/content/{content_id}/transitions", {
            params: { path: { content_id: id } },
            body: { to: to as ContentState, expectedVersion: c.version ?? 0, reason: needsReason ? reason : null },
          }),
        ),
      );
      setReason("");
      void audit.reload();
    });
  };
  const moves = movesFrom(state);
  return (
    <Screen title={`${c.kind?.replace(/_/g, " ")} · ${STATE_NAMES[state] ?? state}`}>
      <p>
        State: <strong>{STATE_NAMES[state] ?? state}</strong>, version {c.version}. {c.replaces ? `Replaces ${c.replaces}.` : ""}
      </p>
      <form onSubmit={(e) => { e.preventDefault(); save(); }}>
        <label for="content-body">Body (JSON){isDraft ? "" : ": only drafts can be edited"}</label>
        <textarea id="content-body" rows={16} readOnly={!isDraft} value={text} onInput={(e) => setText(e.currentTarget.value)} />
        {isDraft && <button type="submit" disabled={edit.busy}>Save draft (version {c.version})</button>}
        <ProblemBox problem={jsonProblem ?? edit.problem} title="Not saved:" />
        <StaleNotice problem={edit.problem} reload={reload} />
      </form>
      {moves.length > 0 && (
        <section aria-labelledby="moves-title">
          <h2 id="moves-title">Lifecycle</h2>
          {moves.some((m) => m.needsReason) && (
            <>
              <label for="return-reason">Reason (needed to return to draft)</label>
              <input id="return-reason" value={reason} onInput={(e) => setReason(e.currentTarget.value)} />
            </>
          )}
          <div class="actions">
            {moves.map((m) => (
              <button key={m.to} type="button" disabled={move.busy || (m.needsReason && !reason.trim())} onClick={() => void transition(m.to, m.needsReason)}>
                {m.label}
              </button>
            ))}
          </div>
          <ProblemBox problem={move.problem} title="Not moved:" />
          <StaleNotice problem={move.problem} reload={reload} />
        </section>
      )}
      <section aria-labelledby="audit-title">
        <h2 id="audit-title">Audit trail</h2>
        <ProblemBox problem={audit.problem} />
        <table class="stacked">
          <caption class="visually-hidden">Who did what, when</caption>
          <thead><tr><th scope="col">Version</th><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">Reason</th></tr></thead>
          <tbody>
            {(audit.data?.items ?? []).map((entry) => (
              <tr key={entry.version}>
                <td data-label="Version">{entry.version}</td>
                <td data-label="When">{entry.at ? new Date(entry.at).toLocaleString() : ""}</td>
                <td data-label="Who">{entry.actor}</td>
                <td data-label="What">{entry.action === "transition" ? `${STATE_NAMES[entry.from ?? ""] ?? entry.from} → ${STATE_NAMES[entry.to ?? ""] ?? entry.to}` : entry.action}</td>
                <td data-label={entry.reason ? "Reason" : undefined}>{entry.reason ?? ""}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </Screen>
  );
}
