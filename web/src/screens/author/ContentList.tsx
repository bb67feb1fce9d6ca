/** Authors: every piece of content, filtered by kind and state. */
import { useState } from "preact/hooks";

import { allPages, api, type Schemas } from "../../api/client";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";
import { GAME_NAMES, KINDS, STATE_NAMES } from "./lifecycle";

export function ContentList() {
  const [kind, setKind] = useState("");
  const [state, setState] = useState("");
  const list = useResource(
    () => allPages((cursor) => api.GET("/authoring/content", { params: { query: { ...(kind ? { kind } : {}), ...(state ? { state: state as Schemas["TransitionRequest"]["to"] } : {}), ...(cursor ? { cursor } : {}), limit: 100 } } })),
    [kind, state],
  );
  return (
    <Screen title="Authoring">
      <p class="actions">
        <a href={href({ name: "content", id: null })}>New content</a>
        <a href={href({ name: "review" })}>Review queue</a>
      </p>
      <div class="filters">
        <label for="filter-kind">Kind</label>
        <select id="filter-kind" value={kind} onChange={(e) => setKind(e.currentTarget.value)}>
          <option value="">Every kind</option>
          {KINDS.map((k) => <option key={k} value={k}>{k.replace(/_/g, " ")}</option>)}
        </select>
        <label for="filter-state">State</label>
        <select id="filter-state" value={state} onChange={(e) => setState(e.currentTarget.value)}>
          <option value="">Every state</option>
          {Object.entries(STATE_NAMES).map(([k, v]) => <option key={k} value={k}>{v}</option>)}
        </select>
      </div>
      {list.loading && <Loading what="content" />}
      <ProblemBox problem={list.problem} />
      <table>
        <caption class="visually-hidden">Content</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Game</th><th scope="col">Kind</th><th scope="col">State</th><th scope="col">Version</th></tr></thead>
        <tbody>
          {(list.data ?? []).map((c) => {
            const body = (c.body ?? {}) as Record<string, unknown>;
            const title = String(body.name ?? body.title ?? body.prompt ?? c.id);
            return (
              <tr key={c.id}>
                <th scope="row"><a href={href({ name: "content", id: c.id ?? null })}>{title}</a></th>
                <td>{GAME_NAMES[c.game ?? ""] ?? c.game}</td>
                <td>{c.kind?.replace(/_/g, " ")}</td>
                <td>{STATE_NAMES[c.state ?? ""] ?? c.state}</td>
                <td>{c.version}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Screen>
  );
}
