/**
 * A Quest match against another player (docs/quest-pvp.md), on the board every Quest
 * battle shares: the opponent named by pseudonym (or "Deleted player"), whose decision
 * the match waits for, and the 24-hour window's end from the server. Each move by either
 * player reaches the other through push (`match.*`), which reads the view again.
 */
import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";
import { BattleBoard } from "./BattleBoard";

export function PvpBattle({ id }: { id: string }) {
  const match = useResource(() => unwrap(api.GET("/quest/battles/{match_id}", { params: { path: { match_id: id } } })), [id]);
  useLive(() => {
    if (match.data?.status !== "finished") void match.reload();
  }, ["match", "MatchFinished"]);
  const back = (
    <p>
      <a href={href({ name: "q_versus" })}>Back to Versus</a>
    </p>
  );
  if (!match.data) {
    return (
      <Screen title="Match against a player">
        {match.loading ? <Loading what="your match" /> : <ProblemBox problem={match.problem} />}
        {back}
      </Screen>
    );
  }
  return (
    <Screen title={`Match against ${match.data.opponentName ?? "a player"}`}>
      <BattleBoard view={match.data} onView={match.set} reload={() => void match.reload()}>
        {back}
      </BattleBoard>
    </Screen>
  );
}
