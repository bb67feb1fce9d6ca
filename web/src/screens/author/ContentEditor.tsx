/**
 * One piece of content: its kind's form (edited while a draft, read-only after), the
 * lifecycle moves its state allows you, and its audit trail. Every write sends the version
 * shown; a refusal is shown in place: a field's message beside the field, what readiness
 * found missing beside the moves, or that someone changed it first.
 */
import { useEffect, useMemo, useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import type { Problem } from "../../api/problems";
import { session } from "../../auth/session";
import { navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";
import { type Draft, bodyOf, draftOf, fieldMessages, type KindForm as Form, pathsOf } from "./formModel";
import { KindForm } from "./KindForm";
import { GAME_NAMES, movesFrom, STATE_NAMES } from "./lifecycle";

type ContentState = Schemas["TransitionRequest"]["to"];

let forms: Promise<Form[]> | null = null;

/** Every kind's form, asked once a page load (they change only with a new release). */
function loadForms(): Promise<Form[]> {
  forms ??= unwrap(api.GET("/authoring/forms")).then(
    (page) => page.items,
    (error: unknown) => {
      forms = null;
      throw error;
    },
  );
  return forms;
}

function useForms() {
  return useResource(loadForms, []);
}

function formFor(all: Form[] | null, game: string, kind: string): Form | undefined {
  return all?.find((f) => f.game === game && f.kind === kind);
}

/** The messages of a refusal (and of text that is not JSON) by field, and the refusal as
 * the box above the form shows it: without the field messages it placed beside a field. */
function placed(problem: Problem | null, local: Map<string, string[]>, paths: Set<string>) {
  const messages = new Map(fieldMessages(problem, paths));
  for (const [path, said] of local) messages.set(path, said);
  let shown = problem;
  if (problem?.code === "invalid_content" && messages.size > 0 && [...messages.keys()].every((p) => paths.has(p)))
    shown = { ...problem, fields: undefined, detail: `${problem.detail ?? "the body is invalid"}: see the messages beside the fields.` };
  return { messages, shown };
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

const kindName = (kind: string | undefined) => (kind ?? "").replace(/_/g, " ");

function NewContent() {
  const all = useForms();
  const [game, setGame] = useState("quest");
  const [kind, setKind] = useState("question");
  // The draft of one kind's form: another kind starts from that kind's defaults.
  const [typed, setTyped] = useState<{ of: string; draft: Draft }>({ of: "", draft: {} });
  const [local, setLocal] = useState(new Map<string, string[]>());
  const action = useAction();
  const form = formFor(all.data, game, kind);
  const of = `${game}/${kind}`;
  const draft = typed.of === of ? typed.draft : draftOf(form?.fields ?? [], {});
  const setDraft = (changed: Draft) => setTyped({ of, draft: changed });
  useEffect(() => {
    setLocal(new Map());
    action.clear();
  }, [of]);
  if (all.loading) return <Screen title="New content"><Loading what="the forms" /></Screen>;
  const games = [...new Set((all.data ?? []).map((f) => f.game))];
  const paths = form ? pathsOf(form.fields, draft) : new Set<string>();
  const { messages, shown } = placed(action.problem, local, paths);
  return (
    <Screen title="New content">
      <ProblemBox problem={all.problem} />
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (!form) return;
          const { body, errors } = bodyOf(form.fields, draft);
          setLocal(errors);
          if (errors.size) return;
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
            setKind((all.data ?? []).find((f) => f.game === chosen)?.kind ?? "");
          }}
        >
          {games.map((g) => <option key={g} value={g}>{GAME_NAMES[g] ?? g}</option>)}
        </select>
        <label for="new-kind">Kind</label>
        <select id="new-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          {(all.data ?? []).filter((f) => f.game === game).map((f) => <option key={f.kind} value={f.kind}>{kindName(f.kind)}</option>)}
        </select>
        {form && (
          <fieldset>
            <legend>{`The ${kindName(kind)}`}</legend>
            <KindForm key={of} prefix="new" fields={form.fields} draft={draft} onChange={setDraft} messages={messages} />
          </fieldset>
        )}
        <ProblemBox problem={shown} title="Not created:" />
        <button type="submit" disabled={action.busy || !form}>Create draft</button>
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
  const all = useForms();
  const [draft, setDraft] = useState<Draft>({});
  const [local, setLocal] = useState(new Map<string, string[]>());
  const [reason, setReason] = useState("");
  const edit = useAction();
  const move = useAction();
  const c = content.data;
  const form = formFor(all.data, c?.game ?? "", c?.kind ?? "");
  useEffect(() => {
    if (c && form) setDraft(draftOf(form.fields, (c.body ?? {}) as Record<string, unknown>));
  }, [c, form]);
  const paths = useMemo(() => (form ? pathsOf(form.fields, draft) : new Set<string>()), [form, draft]);
  const reload = () => {
    edit.clear();
    move.clear();
    setLocal(new Map());
    void content.reload();
    void audit.reload();
  };
  if (content.loading || all.loading) return <Screen title="Content"><Loading what="the content" /></Screen>;
  if (!c) return <Screen title="Content"><ProblemBox problem={content.problem} /></Screen>;
  const state = c.state ?? "";
  const isDraft = state === "draft";
  const yours = state === "in_review" && !!c.submittedBy && c.submittedBy === session()?.sub;
  const { messages, shown } = placed(edit.problem, local, paths);
  const save = () => {
    if (!form) return;
    const { body, errors } = bodyOf(form.fields, draft);
    setLocal(errors);
    if (errors.size) return;
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
  const moves = movesFrom(state, yours);
  return (
    <Screen title={`${kindName(c.kind)} · ${STATE_NAMES[state] ?? state}`}>
      <p>
        State: <strong>{STATE_NAMES[state] ?? state}</strong>, version {c.version}. {c.replaces ? `Replaces ${c.replaces}.` : ""}
      </p>
      {state === "in_review" && <p class="note" style={{ overflowWrap: "anywhere" }}>Submitted for review by {yours ? "you" : c.submittedBy}.</p>}
      <ProblemBox problem={all.problem} />
      <form noValidate onSubmit={(e) => { e.preventDefault(); save(); }}>
        {form && (
          <fieldset>
            <legend>{isDraft ? `The ${kindName(c.kind)}` : `The ${kindName(c.kind)}: only drafts can be edited`}</legend>
            <KindForm prefix="content" fields={form.fields} draft={draft} onChange={setDraft} messages={messages} readOnly={!isDraft} />
          </fieldset>
        )}
        <ProblemBox problem={shown} title="Not saved:" />
        <StaleNotice problem={edit.problem} reload={reload} />
        {isDraft && <button type="submit" disabled={edit.busy}>Save draft (version {c.version})</button>}
      </form>
      {(moves.length > 0 || yours) && (
        <section aria-labelledby="moves-title">
          <h2 id="moves-title">Lifecycle</h2>
          {yours && (
            <p>
              You submitted this for review, so another Author approves it or returns it to draft (two people see
              everything before it is published).
            </p>
          )}
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
