"""Each action an engine applies is timed once, by game: a player's, the CPU's replies and
time's timeouts alike; a refused action is none."""

from __future__ import annotations

import uuid

import pytest
from prometheus_client import REGISTRY

from games.kit.refusal import Refusal
from services.battle import host
from services.battle.host import HostedGame, Seat, SeatKind
from tests.unit.battle.countgame import COUNT, COUNT_CPU, TURN
from tests.unit.battle.support import T0

COUNTING = HostedGame(COUNT, None, COUNT_CPU)  # views unused here


def timed():
    name = "deckyard_battle_engine_action_seconds_count"
    return REGISTRY.get_sample_value(name, {"game": "count"}) or 0


def test_every_applied_action_is_one_observation_of_its_game():
    seats = [Seat("north", SeatKind.PLAYER, uuid.uuid4()), Seat("south", SeatKind.CPU)]
    _, state, _ = host.start(COUNTING, uuid.uuid4(), "duel", seats, {}, 0, 0, T0)
    before = timed()
    state, steps = host.play(COUNTING, seats, state, "north", {"add": 1}, T0)
    assert len(steps) == 2 and timed() == before + 2  # north's, then the CPU's reply

    with pytest.raises(Refusal):
        host.play(COUNTING, seats, state, "south", {"add": 1}, T0)
    assert timed() == before + 2

    state, steps = host.catch_up(COUNTING, seats, state, T0 + TURN * 2)
    assert len(steps) >= 1 and timed() == before + 2 + len(steps)
