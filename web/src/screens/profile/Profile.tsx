/**
 * Profile and account deletion. Deleting needs the exact confirmation sentence typed and a
 * recent sign-in (the server checks both); the deletion's progress is shown until done.
 */
import { useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import { session } from "../../auth/session";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useAction, useResource } from "../../ui/resource";

export const CONFIRMATION = "DELETE MY ACCOUNT";

export function Profile({ onSignOut }: { onSignOut: () => void }) {
  const me = useResource(() => unwrap(api.GET("/me")));
  const progression = useResource(() => unwrap(api.GET("/me/progression", { params: { query: { limit: 20 } } })));
  const [typed, setTyped] = useState("");
  const [deletion, setDeletion] = useState<{ status?: string } | null>(null);
  const action = useAction();
  const remove = () =>
    action.run(async () => {
      setDeletion(await unwrap(api.DELETE("/me", { body: { confirm: typed } })));
    });
  return (
    <Screen title="Profile">
      {me.loading && <Loading what="your profile" />}
      <ProblemBox problem={me.problem} />
      {me.data && (
        <dl>
          <dt>Signed in as</dt><dd>{session()?.sub}</dd>
          <dt>Roles</dt><dd>{(me.data.roles ?? []).join(", ")}</dd>
          <dt>Progression points</dt><dd>{me.data.points ?? 0}</dd>
          <dt>Player since</dt><dd>{me.data.registeredAt ? new Date(me.data.registeredAt).toLocaleDateString() : ""}</dd>
        </dl>
      )}
      {progression.data && (progression.data.entries ?? []).length > 0 && (
        <>
          <h2>Where your points came from</h2>
          <ul>
            {(progression.data.entries ?? []).map((e, n) => (
              <li key={n}>+{e.points} for {e.reason?.replace(/_/g, " ") ?? e.sourceType} ({e.occurredAt ? new Date(e.occurredAt).toLocaleString() : ""})</li>
            ))}
          </ul>
        </>
      )}
      <p><button type="button" onClick={onSignOut}>Sign out</button></p>
      <section aria-labelledby="delete-title" class="danger-zone">
        <h2 id="delete-title">Delete your account</h2>
        {deletion ? (
          <p role="status">
            Your account is locked and being deleted ({deletion.status?.replace(/_/g, " ")}). You can close this page.
          </p>
        ) : (
          <form onSubmit={(e) => { e.preventDefault(); void remove(); }}>
            <p>
              This deletes your cards, decks, battles, progression and your sign-in. It cannot be undone. You need
              to have signed in within the last few minutes.
            </p>
            <label for="confirm-delete">Type {CONFIRMATION} to confirm</label>
            <input id="confirm-delete" autoComplete="off" value={typed} onInput={(e) => setTyped(e.currentTarget.value)} />
            <button type="submit" class="danger" disabled={typed !== CONFIRMATION || action.busy}>
              Delete my account
            </button>
            <ProblemBox problem={action.problem} title="Not deleted:" />
            {action.problem && action.problem.code === "reauthentication_required" && (
              <button type="button" onClick={onSignOut}>Sign in again</button>
            )}
          </form>
        )}
      </section>
    </Screen>
  );
}
