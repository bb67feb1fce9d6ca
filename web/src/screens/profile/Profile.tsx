/**
 * Profile: who you are, your points and where they came from, signing out, and deleting
 * the account (DeleteAccount.tsx), which signs you out once the deletion completes.
 */
import { api, unwrap } from "../../api/client";
import { leaveNotice } from "../../auth/notice";
import { session } from "../../auth/session";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";
import { DeleteAccount, DELETED_NOTICE } from "./DeleteAccount";

export function Profile({ onSignOut }: { onSignOut: () => void }) {
  const me = useResource(() => unwrap(api.GET("/me")));
  const progression = useResource(() => unwrap(api.GET("/me/progression", { params: { query: { limit: 20 } } })));
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
      <DeleteAccount
        onSignOut={onSignOut}
        onDeleted={() => {
          leaveNotice(DELETED_NOTICE);
          onSignOut();
        }}
      />
    </Screen>
  );
}
