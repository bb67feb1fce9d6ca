"""``copies.evolve`` gives what ``dataclasses.replace`` gives, and leaves the original alone."""

from __future__ import annotations

import dataclasses

import pytest

from games.quest.copies import evolve
from games.quest.state import Creature, Side
from games.quest.statuses import ActivePoison, Statuses
from tests.unit.games.quest.support import creature, prepare_battle


def test_evolve_equals_replace_and_changes_nothing_in_place() -> None:
    state = prepare_battle(seed=3)
    before = state.to_dict()
    for changes in ({"turn_number": 7}, {"turn": Side.CPU, "version": 9}, {}):
        evolved = evolve(state, **changes)
        replaced = dataclasses.replace(state, **changes)
        assert evolved == replaced
        assert evolved is not state
        assert hash(evolved) == hash(replaced)
        assert list(vars(evolved)) == list(vars(replaced))  # same attributes, same order
        assert evolved.to_dict() == replaced.to_dict()
    assert state.to_dict() == before


def test_an_evolved_copy_is_still_frozen_and_shares_nothing_mutable() -> None:
    fresh = Creature.fresh(creature("Frozen"))
    hurt = evolve(fresh, hp=1, statuses=Statuses(poison=ActivePoison(2, 3, 1)))
    assert (hurt.hp, fresh.hp) == (1, fresh.card.max_hp)
    assert fresh.statuses == Statuses() and hurt.statuses.poisoned
    assert vars(hurt) is not vars(fresh)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hurt.hp = 2  # type: ignore[misc]
