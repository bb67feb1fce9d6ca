"""A TerraKard attack's time, disconnection and account deletion through the gateway on
the real stack, the battle service on a ``FixedClock`` only the tests move (never a
sleep through a deadline). The sweeper (battle's ``expire_overdue_turns``, run at once
through its entrypoint rather than waited for) plays what time ends: the 20 s round
(the cheapest remaining card, without the knowledge effect), the 15 s question (no
effect), and every round of an attacker who went away. Deleting the attacker ends a
live attack as given up; deleting the defender lets the attack go on; either way the
other keeps the attack against "Deleted player" and nothing of the deleted player
stays in battle (docs/terrakard.md, "Time, disconnection and deletion")."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
import sqlalchemy as sa
from nameko.testing.services import entrypoint_hook

from games.terrakard.config import QUESTION_SECONDS, ROUND_SECONDS
from services.accounts.deletion import CONFIRMATION_PHRASE
from tests.e2e.accounts.test_me import assert_problem
from tests.e2e.terrakard.test_arena_api import Arena, _strong_deck, ready
from tests.e2e.terrakard.test_attack_api import WITH_QUESTIONS, authors, catalogue, commons
from tests.helpers import wait_for

pytestmark = pytest.mark.e2e

__all__ = ["authors", "catalogue"]

ROUND = timedelta(seconds=ROUND_SECONDS)
QUESTION = timedelta(seconds=QUESTION_SECONDS)
TICK = timedelta(microseconds=1)


def sweep(platform) -> None:
    """One pass of battle's sweeper (its timer runs it every 5 s too)."""
    with entrypoint_hook(platform["battle"], "expire_overdue_turns") as run:
        run()


def stored(settings, attack_id: str) -> dict[str, Any]:
    """The attack as battle keeps it, read without the API (a read would play time)."""
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with engine.connect() as conn:
            row = conn.execute(
                sa.text("SELECT status, state FROM matches WHERE id = :id"), {"id": attack_id}
            ).one()
        return {"status": row.status, **row.state}
    finally:
        engine.dispose()


def battle_rows_naming(settings, player_id: str) -> dict[str, int]:
    """Rows of battle's tables that still hold the player's id (or its pseudonym's)."""
    engine = sa.create_engine(settings.database_url_for("battle"))
    queries = {
        "seats": "SELECT count(*) FROM match_seats WHERE player_id = :id",
        "arena": "SELECT count(*) FROM terrakard_arena WHERE player_id = :id",
        "objectives": "SELECT count(*) FROM terrakard_objectives WHERE player_id = :id",
        "rewards": "SELECT count(*) FROM terrakard_rewards WHERE player_id = :id",
        "outbox": "SELECT count(*) FROM outbox WHERE payload::text LIKE '%' || :id || '%'",
        "states": "SELECT count(*) FROM matches WHERE state::text LIKE '%' || :id || '%' "
        "OR initial_state::text LIKE '%' || :id || '%'",
    }
    try:
        with engine.connect() as conn:
            return {k: conn.execute(sa.text(q), {"id": player_id}).scalar_one()
                    for k, q in queries.items()}  # fmt: skip
    finally:
        engine.dispose()


def battle_rows_holding(settings, ids: list[str]) -> int:
    """Rows of battle's attacks (snapshots, log, kept answers, seats) naming any of
    ``ids`` (a player's copies, decks and plans)."""
    engine = sa.create_engine(settings.database_url_for("battle"))
    query = sa.text(
        "SELECT (SELECT count(*) FROM matches WHERE state::text LIKE :p "
        "OR initial_state::text LIKE :p) + (SELECT count(*) FROM match_actions "
        "WHERE events::text LIKE :p OR coalesce(response::text, '') LIKE :p) + "
        "(SELECT count(*) FROM match_seats WHERE ref_id::text = :id)"
    )
    try:
        with engine.connect() as conn:
            return sum(conn.execute(query, {"p": f"%{i}%", "id": i}).scalar_one() for i in ids)
    finally:
        engine.dispose()


def own_ids(player: Arena) -> list[str]:
    """The player's copies, decks and plans (ids of their account's things)."""
    decks = player.ok("GET", "/terrakard/decks")["items"]
    plans = player.ok("GET", "/terrakard/plans")["items"]
    found = [c["id"] for c in player.collection()["cards"]]
    return found + [d["id"] for d in _items(decks)] + [p["id"] for p in _items(plans)]


def _items(listed: Any) -> list[dict[str, Any]]:
    return listed["items"] if isinstance(listed, dict) else listed


def question_plan(defender: Arena) -> dict[str, Any]:
    """Five Commons, round 1's card with a published knowledge question."""
    mine = commons(defender.collection())
    asking = [c for c in mine if c["name"] in WITH_QUESTIONS]
    assert asking, "the defender holds no card with a question"
    rest = [c for c in mine if c is not asking[0]]
    plan = defender.ok(
        "POST",
        "/terrakard/plans",
        {
            "name": "Asking",
            "rounds": [asking[0]["id"], *(c["id"] for c in rest[:4])],
            "reserve": rest[4]["id"],
            "condition": {"trigger": "low_hp"},
            "posture": "balanced",
            "activate": True,
        },
    )
    assert plan["legal"] and plan["active"], plan
    return plan


def under_attack(api, catalogue, clock, questions: bool | None = True, settings=None):
    """An attacker (two Uncommons first in its deck, then six Commons) has begun an
    attack on a defender whose round 1 card asks a question -> (attacker, defender,
    deck, the attack after ``begin``). ``questions`` None: the attacker's setting, after
    ``settings`` (a body for PUT /terrakard/settings) if given."""
    attacker, defender = ready(api, catalogue, clock, 2)
    deck, _ = _strong_deck(attacker)
    question_plan(defender)
    if settings is not None:
        attacker.ok("PUT", "/terrakard/settings", settings)
    body = {"deckId": deck["id"], "targetId": attacker.target_of(defender)}
    if questions is not None:
        body["questions"] = questions
    response = attacker.call("POST", "/terrakard/attacks", body)
    assert response.status_code == 201, response.text
    view = attacker.act(response.json(), {"kind": "begin"})
    assert (view["phase"], view["round"]) == ("choose", 1)
    assert view["deadline"] == (clock.now() + ROUND).isoformat()
    return attacker, defender, deck, view


def test_the_sweeper_plays_the_cheapest_card_without_the_knowledge_effect_after_20_s(
    api, platform, settings, catalogue, clock
):
    attacker, _, _, view = under_attack(api, catalogue, clock)
    view = attacker.act(view, {"kind": "play", "card": 0})  # an Uncommon (cost 2)
    assert view["phase"] == "question"
    view = attacker.act(view, {"kind": "answer", "choice": 0})
    # Easy (a Common's): right +15%, wrong -5%; either way an effect from round 1 on.
    assert view["question"]["effect"] is not None and view["rounds"][0]["knowledge"]
    assert (view["phase"], view["round"]) == ("choose", 2)
    answered_at = clock.now()
    assert view["deadline"] == (answered_at + ROUND).isoformat()

    clock.advance((ROUND - TICK).total_seconds())
    sweep(platform)
    assert stored(settings, view["id"])["version"] == view["version"]  # not yet
    clock.advance(microseconds=1)
    sweep(platform)
    state = stored(settings, view["id"])
    assert (state["phase"], state["round"]) == ("choose", 3)
    auto = state["rounds"][1]
    # The cheapest remaining card: deck index 1 is the other Uncommon, 2 the first Common.
    assert auto["played"] == {"card": 2, "auto": True, "reserve": False}
    assert auto["knowledge"] is False  # rulebook: "without the knowledge bonus"
    # Round 3's 20 s count from round 2's deadline, not from when the sweeper ran.
    assert state["deadline"] == (answered_at + 2 * ROUND).isoformat()

    seen = attacker.ok("GET", f"/terrakard/attacks/{view['id']}")
    assert seen["rounds"][1]["attackerCard"]["auto"] and not seen["rounds"][1]["knowledge"]
    assert [d["used"] for d in seen["deck"]][:3] == [True, False, True]
    # The attacker's next own card gets the effect again.
    after = attacker.act(seen, {"kind": "play", "card": 1})
    assert after["rounds"][2]["knowledge"] and not after["rounds"][2]["attackerCard"]["auto"]
    # Too late for round 2: its version is gone.
    stale = attacker.call(
        "POST",
        f"/terrakard/attacks/{view['id']}/actions",
        {"expectedVersion": view["version"], "action": {"kind": "play", "card": 3}},
    )
    assert_problem(stale, 409, "stale_version")


def test_an_unanswered_question_times_out_after_15_s_with_no_effect(
    api, platform, settings, catalogue, clock
):
    attacker, _, _, view = under_attack(api, catalogue, clock)
    played_at = clock.now()
    view = attacker.act(view, {"kind": "play", "card": 0})
    assert view["phase"] == "question"
    assert len(view["question"]["choices"]) == 3 and view["question"]["stake"]
    assert view["deadline"] == (played_at + QUESTION).isoformat()

    clock.advance((QUESTION - TICK).total_seconds())
    sweep(platform)
    assert stored(settings, view["id"])["phase"] == "question"
    clock.advance(microseconds=1)
    sweep(platform)
    state = stored(settings, view["id"])
    assert state["question"]["answered"] == "timed_out"
    assert not state["rounds"][0]["knowledge"]  # "letting the time run out has no effect"
    assert (state["phase"], state["round"]) == ("choose", 2)
    assert state["deadline"] == (played_at + QUESTION + ROUND).isoformat()

    seen = attacker.ok("GET", f"/terrakard/attacks/{view['id']}")
    assert seen["question"]["answered"] == "timed_out" and seen["question"]["effect"] is None
    late = attacker.call(
        "POST",
        f"/terrakard/attacks/{view['id']}/actions",
        {"expectedVersion": seen["version"], "action": {"kind": "answer", "choice": 1}},
    )
    assert_problem(late, 409, "wrong_phase")
    # Once per attack: no question in the rounds that follow.
    for card in (1, 2, 3, 4):
        if seen["status"] == "finished":
            break
        seen = attacker.act(seen, {"kind": "play", "card": card})
        assert seen["phase"] in ("choose", "finished")
    shown = json.dumps(seen)
    assert "correct" not in shown and "answerKey" not in shown


def test_the_players_setting_turns_the_questions_off_from_the_next_attack(
    api, platform, settings, catalogue, clock
):
    attacker, _, _, view = under_attack(
        api, catalogue, clock, questions=None, settings={"questions": False}
    )
    assert attacker.ok("GET", "/terrakard/profile")["questions"] is False
    # Round 1's defense card has a question: with the setting off, none is asked.
    view = attacker.act(view, {"kind": "play", "card": 0})
    assert (view["phase"], view["round"]) == ("choose", 2)
    assert view["question"] is None and not view["rounds"][0]["knowledge"]
    # Turned on again during the attack: the attack keeps what it started with.
    assert attacker.ok("PUT", "/terrakard/settings", {"questions": True}) == {"questions": True}
    assert attacker.ok("GET", "/terrakard/profile")["questions"] is True
    view = attacker.act(view, {"kind": "play", "card": 1})
    assert view["phase"] in ("choose", "finished") and view["question"] is None
    # Garbage is refused and changes nothing.
    refused = attacker.call("PUT", "/terrakard/settings", {"questions": "no"})
    assert_problem(refused, 422, "validation_failed")
    assert attacker.ok("GET", "/terrakard/profile")["questions"] is True


def test_the_setting_defaults_to_questions_on(api, platform, settings, catalogue, clock):
    attacker, _, _, view = under_attack(api, catalogue, clock, questions=None)
    assert attacker.ok("GET", "/terrakard/profile")["questions"] is True
    view = attacker.act(view, {"kind": "play", "card": 0})
    assert view["phase"] == "question"


def test_a_disconnected_attacker_may_come_back_within_the_round_else_the_sweeper_plays_on(
    api, platform, settings, catalogue, clock
):
    attacker, defender, _, view = under_attack(api, catalogue, clock, questions=False)
    view = attacker.act(view, {"kind": "play", "card": 0})
    assert (view["phase"], view["round"]) == ("choose", 2)
    # Gone for 19 s; back before round 2's deadline: the round is still theirs.
    clock.advance((ROUND - timedelta(seconds=1)).total_seconds())
    sweep(platform)
    back = attacker.ok("GET", f"/terrakard/attacks/{view['id']}")
    assert (back["phase"], back["round"], back["version"]) == ("choose", 2, view["version"])
    view = attacker.act(back, {"kind": "play", "card": 1})
    assert not view["rounds"][1]["attackerCard"]["auto"]

    # Gone for good: the sweeper, not a client, plays every remaining round, each at
    # its own deadline (nobody reads the attack meanwhile).
    clock.advance((3 * ROUND).total_seconds())

    def swept() -> dict[str, Any] | None:
        # A pass skips a match whose row battle's own 5 s timer holds at that moment
        # (SKIP LOCKED), and a pass could read before that timer's commit: pass again
        # until it is over, the test's pass or the timer's (CI once read it "active").
        sweep(platform)
        state = stored(settings, view["id"])
        return state if state["status"] == "finished" else None

    state = wait_for(swept, timeout=30)
    autos = [r["played"]["auto"] for r in state["rounds"]]
    assert autos[:2] == [False, False] and all(autos[2:]) and len(autos) >= 3

    # The defender's report is there without the attacker ever coming back.
    reports = wait_for(
        lambda: [r for r in defender.ok("GET", "/terrakard/defense-reports")["items"]
                 if r["matchId"] == view["id"]]
    )  # fmt: skip
    assert [r["attackerCard"]["auto"] for r in reports[0]["report"]["rounds"]] == autos
    # A page of one: the newest report, then nothing after it (this defender's only one).
    newest = defender.ok("GET", "/terrakard/defense-reports?limit=1")
    assert [r["matchId"] for r in newest["items"]] == [view["id"]] and newest["next"] is None
    far = "644302095255559369-" + "ab" * 16  # no attack's end (beyond the year 9999)
    assert_problem(defender.call("GET", f"/terrakard/defense-reports?cursor={far}"), 422,
                   "invalid_cursor")  # fmt: skip
    # The attacker finds it over in their list of attacks.
    listed = attacker.ok("GET", "/terrakard/attacks")["items"]
    assert listed[0]["id"] == view["id"] and listed[0]["status"] == "finished"
    assert listed[0]["defender"] == defender.pseudonym


def test_the_list_of_your_attacks_pages_newest_first(api, catalogue, clock):
    attacker, *defenders = ready(api, catalogue, clock, 3)
    attacks = []
    for defender in defenders:
        attacks.append(attacker.attack_and_give_up(attacker.target_of(defender))["id"])
        clock.advance(seconds=1)
    seen, cursor = [], None
    while True:
        query = "?limit=2" + ("" if cursor is None else f"&cursor={cursor}")
        page = attacker.ok("GET", f"/terrakard/attacks{query}")
        seen += page["items"]
        cursor = page["next"]
        if cursor is None:
            break
    assert [a["id"] for a in seen[:2]] == attacks[::-1]
    assert [a["mode"] for a in seen] == ["attack", "attack", "tutorial"]
    assert seen[2]["defender"] == "Training plan"
    assert [a["outcome"] for a in seen] == ["forfeit"] * 3
    assert seen[0]["defender"] == defenders[1].pseudonym
    # Another player's list is their own: the defender's holds its tutorial only.
    theirs = defenders[0].ok("GET", "/terrakard/attacks")["items"]
    assert [a["mode"] for a in theirs] == ["tutorial"]
    assert_problem(attacker.call("GET", "/terrakard/attacks?cursor=12-zz"), 422,
                   "invalid_cursor")  # fmt: skip
    # Well formed, but no attack's time (beyond the year 9999): refused, not a crash.
    far = "644302095255559369-" + "ab" * 16
    assert_problem(attacker.call("GET", f"/terrakard/attacks?cursor={far}"), 422,
                   "invalid_cursor")  # fmt: skip
    assert_problem(attacker.call("GET", "/terrakard/attacks?limit=101"), 422,
                   "validation_failed")  # fmt: skip


def delete_account(player: Arena) -> None:
    deleted = player.call("DELETE", "/me", {"confirm": CONFIRMATION_PHRASE})
    assert deleted.status_code == 202, deleted.text


def test_deleting_the_attacker_ends_the_live_attack_as_given_up(
    api, platform, settings, catalogue, clock
):
    attacker, defender, _, view = under_attack(api, catalogue, clock, questions=False)
    view = attacker.act(view, {"kind": "play", "card": 0})
    trophies = defender.profile()["trophies"]
    theirs = own_ids(attacker)
    assert battle_rows_holding(settings, theirs) > 0  # the attack holds their deck
    delete_account(attacker)

    reports = wait_for(
        lambda: [r for r in defender.ok("GET", "/terrakard/defense-reports")["items"]
                 if r["matchId"] == view["id"]],
        timeout=30,
    )  # fmt: skip
    report = reports[0]
    assert report["attacker"] == "Deleted player"
    assert (report["result"], report["attackerResult"]) == ("victory", "forfeit")
    assert report["report"]["rounds"][0]["round"] == 1 and len(report["report"]["rounds"]) == 1
    whole = defender.ok("GET", f"/terrakard/defense-reports/{view['id']}")
    assert attacker.id not in json.dumps(whole) and attacker.pseudonym not in json.dumps(whole)
    # A defense won, as against any attacker who gives up.
    assert defender.profile()["trophies"] > trophies
    assert battle_rows_naming(settings, attacker.id) == dict.fromkeys(
        ("seats", "arena", "objectives", "rewards", "outbox", "states"), 0
    )
    assert battle_rows_holding(settings, theirs) == 0
    # The defense is free again.
    assert defender.profile()["shieldUntil"] is None


def test_deleting_the_defender_lets_the_attack_go_on_against_deleted_player(
    api, platform, settings, catalogue, clock
):
    attacker, defender, _, view = under_attack(api, catalogue, clock, questions=False)
    view = attacker.act(view, {"kind": "play", "card": 0})
    before = attacker.profile()["trophies"]
    theirs = own_ids(defender)
    assert battle_rows_holding(settings, theirs) > 0  # the attack holds their plan
    delete_account(defender)

    def renamed():
        seen = attacker.ok("GET", f"/terrakard/attacks/{view['id']}")
        return seen if seen["defender"] == "Deleted player" else None

    seen = wait_for(renamed, timeout=30)
    assert seen["status"] == "active" and seen["reconnaissance"]["pseudonym"] == "Deleted player"
    for card in range(1, 8):
        if seen["status"] == "finished":
            break
        seen = attacker.act(seen, {"kind": "play", "card": card})
    assert seen["status"] == "finished" and seen["outcome"] is not None
    # The attacker's result counts as any attack's (trophies up on a win, down else).
    after = attacker.profile()["trophies"]
    assert (after > before) if seen["outcome"] != "defeat" else (after <= before)
    listed = attacker.ok("GET", "/terrakard/attacks")["items"]
    assert listed[0]["id"] == view["id"] and listed[0]["defender"] == "Deleted player"
    history = attacker.ok("GET", f"/terrakard/attacks/{view['id']}/history")
    for text in (json.dumps(seen), json.dumps(history), json.dumps(listed)):
        assert defender.id not in text and defender.pseudonym not in text
    assert battle_rows_naming(settings, defender.id) == dict.fromkeys(
        ("seats", "arena", "objectives", "rewards", "outbox", "states"), 0
    )
    engine = sa.create_engine(settings.database_url_for("battle"))
    try:
        with engine.connect() as conn:
            kept = conn.execute(
                sa.text("SELECT count(*) FROM matches WHERE state::text LIKE :p "
                        "OR initial_state::text LIKE :p"),
                {"p": f"%{defender.pseudonym}%"},
            ).scalar_one()  # fmt: skip
    finally:
        engine.dispose()
    assert kept == 0
    assert battle_rows_holding(settings, theirs) == 0
