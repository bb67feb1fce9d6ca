/** Where a signed-in player starts: who they are and where to go. */
import { useState } from "preact/hooks";

import { api, unwrap } from "../../api/client";
import { isAuthor, session, takeWelcome } from "../../auth/session";
import { href } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";

export function Home() {
  const [welcome] = useState(takeWelcome);
  const me = useResource(() => unwrap(api.GET("/me")));
  // Whether you have chosen your starter: the collection says it (no 404 asked for).
  const starter = useResource(async () => (await unwrap(api.GET("/quest/collection"))).starterAffinity ?? null);
  return (
    <Screen title="Quest">
      {me.loading && <Loading what="your account" />}
      <ProblemBox problem={me.problem} />
      {me.data && (
        <p>
          {me.data.registeredNow || welcome ? "Welcome! Your account was just created. " : ""}
          You have <strong>{me.data.points ?? 0}</strong> progression points.
        </p>
      )}
      {!starter.loading && starter.data === null && (
        <p class="callout">
          First, <a href={href({ name: "starter" })}>choose your starter cards</a>.
        </p>
      )}
      <ul class="menu">
        <li><a href={href({ name: "events" })}>Events near you</a></li>
        <li><a href={href({ name: "collection" })}>Your collection</a></li>
        <li><a href={href({ name: "decks" })}>Your decks</a></li>
        <li><a href={href({ name: "battle" })}>Battle the computer</a></li>
        <li><a href={href({ name: "q_versus" })}>Play another player</a></li>
        <li><a href={href({ name: "profile" })}>Profile and account</a></li>
        {isAuthor(session()) && <li><a href={href({ name: "author" })}>Authoring</a></li>}
      </ul>
    </Screen>
  );
}
