"""What each seat sees, the engine protocol, and replay from seed + log, with the global
random disturbed mid-attack (STYLE "Tests")."""

import json
import random
from datetime import timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from games.terrakard.actions import answer, marked, play
from games.terrakard.content import Category
from games.terrakard.engine import Settings
from games.terrakard.game import TERRAKARD, TERRAKARD_CPU
from games.terrakard.plans import ReserveCondition, Trigger
from games.terrakard.state import ATTACKER, DEFENDER, AttackerSide, DefenseSide
from tests.unit.games.terrakard.support import T0, act, card, deck, plan, prepare_attack


def secret_plan():
    rounds = (
        card("Alpha", Category.HISTORY, question=True),
        card("Bravo", Category.SCIENCES),
        card("Charlie", Category.SCIENCES),
        card("Delta", Category.ARTS_AND_CULTURE),
        card("Echo", Category.GEOGRAPHY),
    )
    return plan(
        rounds=rounds,
        reserve=card("Zulu", Category.HISTORY),
        condition=ReserveCondition(Trigger.CATEGORY, Category.NATURE_AND_LIFE),
    )


def shown(state, seat=ATTACKER):
    return json.dumps(TERRAKARD.view(state, seat))


def test_the_reconnaissance_shows_the_profile_terrain_and_categories_not_the_plan():
    state = prepare_attack(defense=secret_plan(), begin=False)
    view = TERRAKARD.view(state, ATTACKER)
    recon = view["reconnaissance"]
    assert (recon["pseudonym"], recon["level"], recon["trophies"]) == ("Rival", 4, 1200)
    # in the cycle's order, not the plan's: the order stays hidden
    assert recon["categories"] == [
        "Sciences",
        "Sciences",
        "Geography",
        "History",
        "Arts and culture",
    ]
    text = shown(state)
    for secret in ("Alpha", "Bravo", "Zulu", "Nature and life", "balanced", "About"):
        assert secret not in text


def test_fog_hides_the_categories_too():
    state = prepare_attack(defense=secret_plan(), terrain="Fog", begin=False)
    assert TERRAKARD.view(state, ATTACKER)["reconnaissance"]["categories"] is None


def test_defense_cards_appear_as_they_are_revealed_and_the_question_without_a_key():
    state = act(prepare_attack(defense=secret_plan()), play(0))
    view = TERRAKARD.view(state, ATTACKER)
    assert view["revealed_now"]["card"]["name"] == "Alpha"
    assert view["question"]["choices"] == ["one", "two", "three"]
    assert "answer" not in view["question"] and "correct" not in shown(state)
    assert view["legal_actions"][0] == {"kind": "answer", "choice": 0}
    for secret in ("Bravo", "Zulu"):
        assert secret not in shown(state)
    state = act(state, answer(0, correct=True), play(1))
    assert "Bravo" in shown(state) and "Charlie" not in shown(state)
    assert "Zulu" not in shown(state)


def test_the_reserve_appears_once_it_comes_in():
    cards = deck(A0=card("Fern", Category.NATURE_AND_LIFE))
    state = prepare_attack(deck_cards=cards, defense=secret_plan(), questions=False)
    state, events = TERRAKARD.apply(state, ATTACKER, play(0), T0)
    assert "Zulu" in shown(state) and "Alpha" not in shown(state)
    attacker_events = json.dumps(TERRAKARD.view_events(events, ATTACKER))
    assert "Zulu" in attacker_events and "Alpha" not in attacker_events


def test_the_defender_sees_its_plan_and_after_the_attack_its_report():
    state = act(prepare_attack(defense=secret_plan(), questions=False), play(0))
    mine = TERRAKARD.view(state, DEFENDER)
    assert mine["plan"]["reserve"]["name"] == "Zulu" and mine["report"] is None
    assert mine["legal_actions"] == []
    over = act(state, play(1), play(2), play(3), play(4))
    report = TERRAKARD.view(over, DEFENDER)["report"]
    assert [r["defense_card"]["name"] for r in report["rounds"]] == [
        "Alpha",
        "Bravo",
        "Charlie",
        "Delta",
        "Echo",
    ]
    assert report["stars"] == over.stars and report["terrain"] == "Neutral ground"
    assert "attacker_card" in report["rounds"][0]


def test_marking_overwrites_whatever_the_client_claimed():
    claimed = TERRAKARD.action_from_json({"kind": "answer", "choice": 2, "correct": True})
    assert marked(claimed, answer_key=0).correct is False
    assert marked(claimed, answer_key=2).correct is True
    assert marked(play(1), answer_key=2) == play(1)


def test_results_in_the_games_words():
    won = act(prepare_attack(deck_cards=deck(A0=card("Titan", atk=200))), play(0))
    assert TERRAKARD.results(won) == {ATTACKER: "three_stars", DEFENDER: "defeat"}
    gave_up = act(prepare_attack(), TERRAKARD.action_from_json({"kind": "give_up"}))
    assert TERRAKARD.results(gave_up) == {ATTACKER: "forfeit", DEFENDER: "victory"}
    assert TERRAKARD.results(prepare_attack()) is None
    assert TERRAKARD.waiting_for(won) == [] and TERRAKARD.deadline(won) is None


def live(seed, gaps, disturb):
    """The CPU attacker with gaps between its actions (some late: timeouts), logged."""
    seats = {ATTACKER: AttackerSide(deck()), DEFENDER: DefenseSide(secret_plan(), "R", 3, 9)}
    state = TERRAKARD.new_match(Settings(), seats, seed, T0)
    log, at = [], T0
    for gap in gaps:
        if state.finished:
            break
        if disturb:
            random.seed(gap)
            random.random()
        at += timedelta(seconds=gap)
        action = TERRAKARD_CPU(state, ATTACKER)
        before = TERRAKARD.to_json(state)
        state, _ = TERRAKARD.apply(state, ATTACKER, action, at)
        assert TERRAKARD.to_json(state) != before and state.version == len(log) + 1
        log.append((ATTACKER, TERRAKARD.action_from_json(TERRAKARD.action_to_json(action)), at))
    return seats, state, log


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    gaps=st.lists(st.integers(0, 40), min_size=1, max_size=20),
)
def test_replay_from_seed_and_log_gives_the_live_attack(seed, gaps):
    seats, state, log = live(seed, gaps, disturb=True)
    again = TERRAKARD.replay(Settings(), seats, seed, T0, log)
    assert again == state
    assert TERRAKARD.from_json(json.loads(json.dumps(TERRAKARD.to_json(state)))) == state
    assert len({r.number for r in state.rounds}) == len(state.rounds) <= 5
    assert sum(r.played.reserve for r in state.rounds) <= 1
    assert all(r.to_defense >= 1 and r.to_attacker >= 1 for r in state.rounds)
    json.dumps(TERRAKARD.view(state, ATTACKER))
    json.dumps(TERRAKARD.view(state, DEFENDER))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    choices=st.lists(st.integers(0, 20), min_size=30, max_size=30),
    question_round=st.integers(0, 4),
)
def test_random_legal_play_keeps_the_rulebooks_invariants(seed, choices, question_round):
    rounds = tuple(card(f"D{i}", question=i >= question_round, atk=10 * i + 20) for i in range(5))
    seats = {
        ATTACKER: AttackerSide(deck()),
        DEFENDER: DefenseSide(plan(rounds=rounds), "R", 3, 9),
    }
    state = TERRAKARD.new_match(Settings(), seats, seed, T0)
    for pick in choices:
        legal = TERRAKARD.legal_actions(state, ATTACKER)
        if not legal:
            break
        action = marked(legal[pick % len(legal)], answer_key=1)
        state, _ = TERRAKARD.apply(state, ATTACKER, action, T0)
    asked = state.question
    # the first round whose planned card has one, unless the reserve (no question) came in
    expected = question_round + 1 + (state.reserve_round == question_round + 1)
    assert asked is None or asked.round == expected
    assert sum(r.played.reserve for r in state.rounds) <= 1
    if state.finished:
        hp = state.attacker_hp, state.defense_hp
        if state.stars == 3:
            assert hp[1] == 0 and hp[0] > 0
        elif state.stars in (1, 2):
            assert len(state.rounds) == 5 and hp[0] > hp[1] > 0
            assert (state.stars == 2) == (hp[1] <= 75)
        elif state.finish_reason.value != "gave_up":
            assert hp[0] == 0 or hp[0] <= hp[1]
