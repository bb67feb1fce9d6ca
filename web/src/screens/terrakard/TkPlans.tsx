/**
 * TerraKard defense plans: the list (one active; activate another), and the editor: five
 * cards in the order of the rounds, a sixth as the reserve with its condition, and a
 * posture, within your level's defense budget. A changed plan counts from the next attack.
 */
import { useEffect, useState } from "preact/hooks";

import { api, listed, unwrap } from "../../api/client";
import { assessPlan, CATEGORIES, PLAN_ROUNDS, POSTURES, type TkCard, TRIGGERS } from "../../lib/terrakardRules";
import { href, navigate } from "../../lib/router";
import { Loading, ProblemBox, Screen } from "../../ui/components";
import { terrakardFace } from "../../ui/faces";
import { CardGrid, GameCard } from "../../ui/GameCard";
import { useAction, useResource } from "../../ui/resource";
import { cardLine, CostMeter } from "./TkCards";
import { useTkCollection } from "./TkHome";

type Posture = (typeof POSTURES)[number]["value"];
type Trigger = (typeof TRIGGERS)[number]["value"];

function usePlans() {
  return useResource(() => listed(api.GET("/terrakard/plans")));
}

/** A posture as the editor names it ("Cautious"), never its code. */
export function postureName(posture: string | null | undefined): string {
  return POSTURES.find((p) => p.value === posture)?.label ?? (posture ?? "");
}

export function conditionText(condition: { trigger?: unknown; category?: unknown } | undefined): string {
  if (!condition) return "";
  if (condition.trigger === "category") return `when the attacker plays a ${String(condition.category)} card`;
  if (condition.trigger === "epic_or_rarer") return "when the attacker plays an Epic or rarer card";
  return "when the defense is below half its hit points at a round's start";
}

export function TkPlans() {
  const plans = usePlans();
  const action = useAction();
  const activate = (id: string) =>
    action.run(async () => {
      await unwrap(api.POST("/terrakard/plans/{plan_id}/activate", { params: { path: { plan_id: id } } }));
      await plans.reload();
    });
  return (
    <Screen title="Defense plans">
      <p class="note">One plan is active: it defends you. Without a legal active plan, the automatic plan defends you (a victory against it earns less).</p>
      {plans.loading && <Loading what="your plans" />}
      <ProblemBox problem={plans.problem ?? action.problem} />
      {plans.data && plans.data.length === 0 && <p>No plan yet.</p>}
      <ul class="menu" aria-label="Your defense plans">
        {(plans.data ?? []).map((p) => (
          <li key={p.id}>
            <a href={href({ name: "tk_plan", id: p.id ?? null })}>{p.name}</a>
            {p.active ? " (active)" : ""}: cost {p.cost} of {p.budget}, {postureName(p.posture)}, {p.legal ? "✓ legal" : "✗ not legal"}{" "}
            {!p.active && (
              <button type="button" disabled={action.busy} onClick={() => void activate(p.id ?? "")} aria-label={`Make ${p.name} active`}>
                Make active
              </button>
            )}
          </li>
        ))}
      </ul>
      <p><a href={href({ name: "tk_plan", id: null })}>New defense plan</a></p>
    </Screen>
  );
}

function CardSelect({ id, label, value, cards, taken, onChange }: { id: string; label: string; value: string; cards: TkCard[]; taken: string[]; onChange: (v: string) => void }) {
  return (
    <>
      <label for={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.currentTarget.value)}>
        <option value="">— no card —</option>
        {cards.map((c) => (
          <option key={c.id} value={c.id} disabled={c.id !== value && taken.includes(c.id ?? "")}>
            {cardLine(c)}
          </option>
        ))}
      </select>
    </>
  );
}

/** The plan as it stands, as cards in the order of the rounds, the reserve last. */
function PlanCards({ rounds, reserve }: { rounds: (TkCard | null)[]; reserve: TkCard | null }) {
  const placed = [...rounds.map((c, n) => ({ card: c, label: `Round ${n + 1}` })), { card: reserve, label: "Reserve" }];
  if (!placed.some((p) => p.card)) return null;
  return (
    <CardGrid label="Your plan as cards" ordered>
      {placed.map(({ card, label }) => (
        <li key={label}>
          {card ? (
            <GameCard face={{ ...terrakardFace(card), note: label }} label={`${label}: ${card.name}`} />
          ) : (
            <p class="gcard-empty">{label}: no card yet</p>
          )}
        </li>
      ))}
    </CardGrid>
  );
}

export function TkPlanEditor({ id }: { id: string | null }) {
  const collection = useTkCollection();
  const plans = usePlans();
  const plan = id ? (plans.data ?? []).find((p) => p.id === id) : undefined;
  const [name, setName] = useState("");
  const [rounds, setRounds] = useState<string[]>(Array(PLAN_ROUNDS).fill(""));
  const [reserve, setReserve] = useState("");
  const [trigger, setTrigger] = useState<Trigger>("low_hp");
  const [category, setCategory] = useState(CATEGORIES[0] ?? "");
  const [posture, setPosture] = useState<Posture>("balanced");
  const [activate, setActivate] = useState(true);
  const action = useAction();

  useEffect(() => {
    if (!plan) return;
    setName(plan.name ?? "");
    setRounds((plan.rounds ?? []).map((c) => c.id ?? ""));
    setReserve(plan.reserve?.id ?? "");
    const condition = plan.condition as { trigger?: Trigger; category?: string | null } | undefined;
    if (condition?.trigger) setTrigger(condition.trigger);
    if (condition?.category) setCategory(condition.category);
    setPosture((plan.posture as Posture) ?? "balanced");
    setActivate(!!plan.active);
  }, [plan?.id, plan?.version]);

  const cards: TkCard[] = collection.data?.cards ?? [];
  const byId = (cid: string) => cards.find((c) => c.id === cid) ?? null;
  const budget = collection.data?.budget?.defense ?? 0;
  const assessment = assessPlan(rounds.map(byId), byId(reserve), budget);
  const taken = [...rounds, reserve].filter(Boolean);

  const body = () => ({
    name,
    rounds,
    reserve,
    condition: { trigger, category: trigger === "category" ? category : null },
    posture,
    activate,
  });
  const save = () =>
    action.run(async () => {
      if (id && plan) {
        await unwrap(api.PUT("/terrakard/plans/{plan_id}", { params: { path: { plan_id: id } }, body: { ...body(), expectedVersion: plan.version ?? 0 } }));
        await plans.reload();
      } else {
        const created = await unwrap(api.POST("/terrakard/plans", { body: body() }));
        navigate({ name: "tk_plan", id: created.id ?? null });
      }
    });
  const remove = () =>
    action.run(async () => {
      if (!id || !plan) return;
      await unwrap(api.DELETE("/terrakard/plans/{plan_id}", { params: { path: { plan_id: id }, query: { expectedVersion: plan.version ?? 0 } } }));
      navigate({ name: "tk_plans" });
    });

  const title = id ? `Defense plan: ${plan?.name ?? ""}` : "New defense plan";
  if (collection.loading || plans.loading) return <Screen title={title}><Loading what="your cards" /></Screen>;
  if (collection.data && !collection.data.started)
    return <Screen title={title}><p class="callout">First <a href={href({ name: "tk_home" })}>claim your starting collection</a>.</p></Screen>;
  return (
    <Screen title={title}>
      <ProblemBox problem={collection.problem ?? plans.problem} />
      {plan && <p>{plan.active ? "This plan is active: it defends you from the next attack on." : "This plan is not active."} Saved version: {plan.legal ? "✓ legal" : "✗ not legal"}.</p>}
      <form onSubmit={(e) => { e.preventDefault(); void save(); }}>
        <label for="tk-plan-name">Plan name</label>
        <input id="tk-plan-name" required maxLength={40} value={name} onInput={(e) => setName(e.currentTarget.value)} />
        <CostMeter id="tk-plan-cost" cost={assessment.cost} budget={budget} problems={assessment.problems} legal={assessment.legal} empty="Choose five cards and a reserve." />
        <fieldset>
          <legend>The rounds, in order</legend>
          {rounds.map((value, n) => (
            <CardSelect key={n} id={`tk-round-${n + 1}`} label={`Round ${n + 1} card`} value={value} cards={cards} taken={taken}
              onChange={(v) => setRounds(rounds.map((old, i) => (i === n ? v : old)))} />
          ))}
        </fieldset>
        <PlanCards rounds={rounds.map(byId)} reserve={byId(reserve)} />
        <fieldset>
          <legend>Reserve</legend>
          <CardSelect id="tk-reserve" label="Reserve card" value={reserve} cards={cards} taken={taken} onChange={setReserve} />
          <p class="note">Once per attack, the reserve replaces the round's planned card when its condition is met; the replaced card is not played.</p>
          {TRIGGERS.map((t) => (
            <label key={t.value} class="choice">
              <input type="radio" name="tk-trigger" value={t.value} checked={trigger === t.value} onChange={() => setTrigger(t.value)} />
              {t.label}
            </label>
          ))}
          {trigger === "category" && (
            <>
              <label for="tk-trigger-category">Category that brings the reserve in</label>
              <select id="tk-trigger-category" value={category} onChange={(e) => setCategory(e.currentTarget.value)}>
                {CATEGORIES.map((c) => <option key={c} value={c}>{c}</option>)}
              </select>
            </>
          )}
        </fieldset>
        <fieldset>
          <legend>Posture (every defense card, the reserve included)</legend>
          {POSTURES.map((p) => (
            <label key={p.value} class="choice">
              <input type="radio" name="tk-posture" value={p.value} checked={posture === p.value} onChange={() => setPosture(p.value)} />
              {p.label}: {p.note}
            </label>
          ))}
        </fieldset>
        <label class="choice">
          <input type="checkbox" checked={activate} onChange={(e) => setActivate(e.currentTarget.checked)} />
          Make it my active plan
        </label>
        <ProblemBox problem={action.problem} title="Not saved:" />
        {action.problem?.code === "stale_version" && (
          <button type="button" onClick={() => { action.clear(); void plans.reload(); }}>Reload the plan</button>
        )}
        <div class="actions">
          <button type="submit" disabled={action.busy}>{id ? "Save changes" : "Save plan"}</button>
          {id && (
            <button type="button" class="danger" disabled={action.busy} onClick={() => confirm(`Delete the plan ${name}?`) && void remove()}>
              Delete plan
            </button>
          )}
        </div>
      </form>
    </Screen>
  );
}
