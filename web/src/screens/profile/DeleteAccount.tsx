/**
 * Deleting the account. The button stays disabled until the exact confirmation sentence
 * is typed; the server also wants a recent sign-in (`reauthentication_required` offers to
 * sign in again). Once asked, the account is locked and the deletion's progress is read
 * from `GET /me/deletion` every `pollSeconds` until it completes; then the player is
 * signed out, and the sign-in page says the account is gone.
 */
import { useEffect, useState } from "preact/hooks";

import { api, type Schemas, unwrap } from "../../api/client";
import { config } from "../../config";
import { ProblemBox } from "../../ui/components";
import { useAction } from "../../ui/resource";

export const CONFIRMATION = "DELETE MY ACCOUNT";
export const DELETED_NOTICE = "Your account has been deleted: your cards, decks, matches and sign-in are gone.";

type Deletion = Schemas["Deletion"];

const STEPS: Record<string, string> = {
  purging_data: "removing your data",
  deleting_identity: "deleting your sign-in",
  completed: "done",
};

/** The deletion in one sentence: its step and how many parts of Deckyard have purged. */
export function deletionText(deletion: Deletion): string {
  const answers = Object.values(deletion.services ?? {});
  const purged = answers.filter((answer) => answer === "purged").length;
  const step = STEPS[deletion.status ?? ""] ?? (deletion.status ?? "").replace(/_/g, " ");
  const parts = answers.length ? ` (${purged} of ${answers.length} parts of Deckyard purged)` : "";
  return `Your account is locked and being deleted: ${step}${parts}.`;
}

export function DeleteAccount({ onSignOut, onDeleted }: { onSignOut: () => void; onDeleted: () => void }) {
  const [typed, setTyped] = useState("");
  const [deletion, setDeletion] = useState<Deletion | null>(null);
  const action = useAction();
  const status = deletion?.status;

  useEffect(() => {
    if (!status) return;
    if (status === "completed") {
      onDeleted();
      return;
    }
    const timer = setInterval(() => {
      unwrap(api.GET("/me/deletion")).then(setDeletion, () => {
        // Not answered this time: the next tick asks again; the sentence stays as it was.
      });
    }, config().pollSeconds * 1000);
    return () => clearInterval(timer);
  }, [status]);

  const remove = () =>
    action.run(async () => {
      setDeletion(await unwrap(api.DELETE("/me", { body: { confirm: typed } })));
    });

  return (
    <section aria-labelledby="delete-title" class="danger-zone">
      <h2 id="delete-title">Delete your account</h2>
      {deletion ? (
        <p role="status">{deletionText(deletion)} Stay on this page to be signed out when it is done.</p>
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
          {action.problem?.code === "reauthentication_required" && (
            <button type="button" onClick={onSignOut}>Sign in again</button>
          )}
        </form>
      )}
    </section>
  );
}
