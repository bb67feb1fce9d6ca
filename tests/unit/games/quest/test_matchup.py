"""Every cell of both affinity tables, through real moves in a match.

Version 2 is copied here from the rulebook's "Damage matchup table" (not
from the engine), version 1 from docs/card-catalogue.md section 2 (assumed),
and a stored state without ``affinity_rules_version`` must use version 1.
"""

from __future__ import annotations

import pytest

from games.quest import Action, MatchState
from tests.unit.games.quest.support import (
    CPU,
    act,
    active,
    creature,
    dmg,
    move,
    of_type,
    pass_turn,
    power_card,
    prepare_battle,
)

AFFINITIES = ("Wit", "Grit", "Spark", "Spirit", "Mystic")
# Damage of a 40-point move (40 x 1.5 = 60, 40 x 0.75 = 30, 40 x 1 = 40).
V2 = {
    "Wit": (40, 60, 30, 40, 40),
    "Grit": (30, 40, 60, 30, 60),
    "Spark": (60, 30, 40, 60, 30),
    "Spirit": (40, 60, 30, 40, 60),
    "Mystic": (40, 30, 60, 60, 40),
}
V1 = {
    "Wit": (40, 60, 30, 40, 40),
    "Grit": (30, 40, 60, 40, 40),
    "Spark": (60, 30, 40, 40, 40),
    "Spirit": (40, 40, 40, 40, 40),
    "Mystic": (40, 40, 40, 40, 40),
}


def cells(table):
    return [
        (attacker, defender, table[attacker][column])
        for attacker in AFFINITIES
        for column, defender in enumerate(AFFINITIES)
    ]


def battle(attacker: str, defender: str, version: int = 2):
    me = creature(
        "Attacker",
        affinity=attacker,
        hp=200,
        moves=[move("Typed", type=attacker, effects=[dmg(40)]), move("Plain", effects=[dmg(40)])],
    )
    blast = power_card("Blast", [dmg(40)])
    return prepare_battle(
        player=[me],
        cpu=[creature("Defender", defender, hp=200)],
        player_cards=[blast],
        version=version,
    )


def legacy(state: MatchState) -> MatchState:
    """The state as a historical row stored it: without the rules version field."""
    data = state.to_dict()
    del data["affinity_rules_version"]
    return MatchState.from_dict(data)


@pytest.mark.parametrize(("attacker", "defender", "expected"), cells(V2))
def test_version_2_matchup(attacker, defender, expected):
    state = battle(attacker, defender)
    assert state.affinity_rules_version == 2
    _, events = act(state, Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == expected


@pytest.mark.parametrize(("attacker", "defender", "expected"), cells(V1))
def test_version_1_matchup_for_a_state_stored_without_the_field(attacker, defender, expected):
    state = legacy(battle(attacker, defender))
    assert state.affinity_rules_version == 1
    after, events = act(state, Action.use_move(0))
    assert of_type(events, "damage")[0]["amount"] == expected
    assert after.to_dict()["affinity_rules_version"] == 1  # never rewritten


@pytest.mark.parametrize("defender", AFFINITIES)
@pytest.mark.parametrize("version", [1, 2])
def test_basic_moves_and_power_cards_are_neutral(defender, version):
    state = battle("Grit", defender, version)
    _, events = act(state, Action.use_move(1))
    assert of_type(events, "damage")[0]["amount"] == 40
    _, events = act(state, Action.play_power_card(0))
    assert of_type(events, "damage")[0]["amount"] == 40


def test_affinity_never_touches_poison_self_damage_healing_or_power():
    me = creature(
        "Attacker",
        affinity="Wit",
        moves=[
            move(
                type="Wit",
                effects=[
                    {"type": "poison", "amount": 10, "turns": 1},
                    {"type": "power_change", "amount": -4, "target": "opponent"},
                    {"type": "self_damage", "amount": 10},
                    {"type": "heal", "amount": 6},
                ],
            )
        ],
    )
    state = prepare_battle(player=[me], cpu=[creature("Rock", "Grit")])
    state, _ = act(state, Action.use_move(0))
    assert active(state, CPU).power == 6
    state = pass_turn(state)
    assert active(state, CPU).hp == 90
    assert state.player.creatures[0].hp == 96
