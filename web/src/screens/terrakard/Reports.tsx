/**
 * Defense reports: every attack against your plan (newest first), pushed as
 * `match.defended` when one ends; one report with each round, the reserve, the question
 * (answered right, wrong, skipped: never which answer) and its replay.
 */
import { api, unwrap } from "../../api/client";
import { href } from "../../lib/router";
import { useLive } from "../../stream/live";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { useResource } from "../../ui/resource";
import { outcomeText, reasonText, type RoundView, starsText } from "./describe";
import { Replay, type ReplayEntry } from "./Replay";
import { conditionText, postureName } from "./TkPlans";

interface Report {
  terrain: string;
  automatic: boolean;
  posture: string;
  rounds: RoundView[];
  reserve: { round: number; trigger: string; category: string | null } | null;
  question: { round: number; difficulty: string; answered: string | null } | null;
  stars: number;
  defenseWon: boolean;
  reason: string | null;
  attackerHp: number;
  defenseHp: number;
}

export function Reports() {
  const reports = useResource(() => unwrap(api.GET("/terrakard/defense-reports")));
  useLive(() => void reports.reload(), ["match.defended"]);
  const items = reports.data?.items ?? [];
  return (
    <Screen title="Defense reports">
      {reports.loading && <Loading what="your reports" />}
      <ProblemBox problem={reports.problem} />
      {reports.data && items.length === 0 && <p>No one has attacked you yet.</p>}
      <ul class="menu" aria-label="Attacks against you">
        {items.map((r) => (
          <li key={r.matchId}>
            <a href={href({ name: "tk_report", id: r.matchId ?? "" })}>
              {r.attacker}, {r.finishedAt ? new Date(r.finishedAt).toLocaleString() : ""}
            </a>
            : {r.result === "victory" ? "✓ your defense held" : `✗ ${outcomeText(r.attackerResult)} for the attacker`}
          </li>
        ))}
      </ul>
    </Screen>
  );
}

export function ReportView({ id }: { id: string }) {
  const found = useResource(() => unwrap(api.GET("/terrakard/defense-reports/{attack_id}", { params: { path: { attack_id: id } } })), [id]);
  if (found.loading) return <Screen title="Defense report"><Loading what="the report" /></Screen>;
  const data = found.data;
  const report = data?.report as unknown as Report | undefined;
  return (
    <Screen title={`Defense report: ${data?.attacker ?? ""}`}>
      <ProblemBox problem={found.problem} />
      {report && (
        <>
          <p>{report.defenseWon ? "✓ Your defense held." : `✗ The attacker won: ${starsText(report.stars)}.`} The attack ended because {reasonText(report.reason)}.</p>
          <dl>
            <dt>Terrain</dt><dd>{report.terrain}</dd>
            <dt>Plan</dt><dd>{report.automatic ? "the automatic plan" : "your saved plan"}, posture {postureName(report.posture)}</dd>
            <dt>Reserve</dt><dd>{report.reserve ? `came in at round ${report.reserve.round}, ${conditionText(report.reserve)}` : "did not come in"}</dd>
            <dt>Question</dt><dd>{report.question ? `round ${report.question.round}, ${report.question.difficulty}: ${(report.question.answered ?? "not answered").replace("_", " ")}` : "none asked"}</dd>
            <dt>Hit points at the end</dt><dd>attacker {report.attackerHp}, defense {report.defenseHp}</dd>
          </dl>
          <table class="stacked">
            <caption>Rounds</caption>
            <thead><tr><th scope="col">Round</th><th scope="col">Attacker</th><th scope="col">Your card</th><th scope="col">Damage</th></tr></thead>
            <tbody>
              {report.rounds.map((r) => (
                <tr key={r.round}>
                  <th scope="row" data-label="Round">{r.round}</th>
                  <td data-label="Attacker">{r.attackerCard.name} ({r.attackerCard.category}, {r.attackerCard.rarity}){r.attackerCard.auto ? ", played by the server" : ""}</td>
                  <td data-label="Your card">{r.defenseCard.name}{r.defenseCard.reserve ? " (reserve)" : ""}</td>
                  <td data-label="Damage">{r.toDefense} to you, {r.toAttacker} to the attacker</td>
                </tr>
              ))}
            </tbody>
          </table>
          <Replay entries={(data?.replay ?? []) as unknown as ReplayEntry[]} you="defender" />
        </>
      )}
      <p><a href={href({ name: "tk_reports" })}>All reports</a></p>
    </Screen>
  );
}
