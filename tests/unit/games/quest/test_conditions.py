"""One test per condition type (docs/card-catalogue.md "Condition types"),
each boundary tested on both sides. An unmet condition makes the move absent
from ``legal_actions`` and refused by ``apply`` with ``condition_unmet``.
"""

from __future__ import annotations

import pytest

from games.quest import Action, IllegalAction, RefusalCode, legal_actions
from tests.unit.games.quest.support import (
    CPU,
    PLAYER,
    act,
    active,
    creature,
    move,
    pass_turn,
    prepare_battle,
    set_active,
)


def battle(condition: dict, hp: int = 100, opening: list[dict] | None = None):
    me = creature(
        "Tester",
        hp=hp,
        moves=[
            move("Conditional", conditions=[condition]),
            move("Opening", effects=opening or [{"type": "power_restore", "amount": 1}]),
        ],
    )
    return prepare_battle(player=[me])


def assert_refused(state, action: Action, condition: str) -> None:
    assert action not in legal_actions(state, PLAYER)
    with pytest.raises(IllegalAction) as refused:
        act(state, action)
    assert refused.value.code == RefusalCode.CONDITION_UNMET
    assert refused.value.details["condition"] == condition


@pytest.mark.parametrize(("hp", "legal"), [(30, True), (31, False), (1, True)])
def test_hp_at_most_percent_compares_hp_times_100_with_percent_times_max(hp, legal):
    state = set_active(battle({"type": "hp_at_most_percent", "percent": 40}, hp=75), PLAYER, hp=hp)
    if legal:
        assert Action.use_move(0) in legal_actions(state, PLAYER)
        act(state, Action.use_move(0))
    else:
        assert_refused(state, Action.use_move(0), "hp_at_most_percent")


@pytest.mark.parametrize(("hp", "legal"), [(50, True), (49, False), (100, True)])
def test_hp_at_least_percent_holds_from_that_share_of_max_hp(hp, legal):
    state = set_active(battle({"type": "hp_at_least_percent", "percent": 50}), PLAYER, hp=hp)
    if legal:
        assert Action.use_move(0) in legal_actions(state, PLAYER)
    else:
        assert_refused(state, Action.use_move(0), "hp_at_least_percent")


def test_opponent_has_status_poisoned_needs_poison_turns_left_on_the_opponent():
    state = battle(
        {"type": "opponent_has_status", "status": "poisoned"},
        opening=[{"type": "poison", "amount": 1, "turns": 1}],
    )
    assert_refused(state, Action.use_move(0), "opponent_has_status")
    state, _ = act(state, Action.use_move(1))
    state = pass_turn(state)  # the CPU's turn: its one poison turn ends
    assert active(state, CPU).statuses.poison is None
    assert_refused(state, Action.use_move(0), "opponent_has_status")
    longer = battle(
        {"type": "opponent_has_status", "status": "poisoned"},
        opening=[{"type": "poison", "amount": 1, "turns": 2}],
    )
    longer, _ = act(longer, Action.use_move(1))
    longer = pass_turn(longer)
    assert Action.use_move(0) in legal_actions(longer, PLAYER)


def test_opponent_has_status_stunned_needs_stun_turns_left_on_the_opponent():
    state = battle(
        {"type": "opponent_has_status", "status": "stunned"},
        opening=[{"type": "stun", "turns": 2}],
    )
    assert_refused(state, Action.use_move(0), "opponent_has_status")
    state, _ = act(state, Action.use_move(1))
    state = pass_turn(state)  # one of two stunned turns
    assert Action.use_move(0) in legal_actions(state, PLAYER)
    state, _ = act(state, Action.use_move(0))
    state = pass_turn(state)  # the second stunned turn
    assert_refused(state, Action.use_move(0), "opponent_has_status")


def test_once_per_match_allows_one_use_by_this_creature_even_if_it_did_nothing():
    once = move(
        "Once", effects=[{"type": "heal", "amount": 1}], conditions=[{"type": "once_per_match"}]
    )
    me, twin = creature("Tester", moves=[once]), creature("Twin", moves=[once])
    state = prepare_battle(player=[me, twin])
    state, _ = act(state, Action.use_move(0))  # heals nothing at full HP; still recorded
    assert active(state, PLAYER).used_moves == (0,)
    state = pass_turn(state)
    assert_refused(state, Action.use_move(0), "once_per_match")
    state, _ = act(state, Action.swap(1))
    state = pass_turn(state)
    assert Action.use_move(0) in legal_actions(state, PLAYER)  # another copy, its own use


def test_conditions_are_checked_before_the_cost_and_all_must_hold():
    me = creature(
        "Tester",
        moves=[
            move(
                "Both",
                cost=3,
                conditions=[
                    {"type": "hp_at_most_percent", "percent": 50},
                    {"type": "once_per_match"},
                ],
            )
        ],
    )
    state = prepare_battle(player=[me])
    assert_refused(state, Action.use_move(0), "hp_at_most_percent")
    assert active(state, PLAYER).power == 10
    state = set_active(state, PLAYER, hp=50)
    state, _ = act(state, Action.use_move(0))
    assert active(state, PLAYER).power == 7
