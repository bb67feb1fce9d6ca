"""``evolve`` gives what ``dataclasses.replace`` gives, and leaves the original alone."""

from __future__ import annotations

import dataclasses

import pytest

from games.kit.chance import RandomState
from games.kit.frozen import evolve
from games.quest.state import Creature, Side
from tests.unit.games.quest.support import creature, prepare_battle


def test_evolve_equals_replace_and_changes_nothing_in_place() -> None:
    state = prepare_battle(seed=3)
    before = state.to_dict()
    for changes in ({"turn_number": 7}, {"turn": Side.CPU, "version": 9}, {}):
        evolved = evolve(state, **changes)
        assert evolved == dataclasses.replace(state, **changes)
        assert evolved is not state
        assert hash(evolved) == hash(dataclasses.replace(state, **changes))
    assert state.to_dict() == before


def test_an_evolved_copy_is_still_frozen() -> None:
    fresh = Creature.fresh(creature("Frozen"))
    hurt = evolve(fresh, hp=1)
    assert (hurt.hp, fresh.hp) == (1, fresh.card.max_hp)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hurt.hp = 2  # type: ignore[misc]
    assert evolve(RandomState(5), counter=2) == RandomState(5, counter=2)
