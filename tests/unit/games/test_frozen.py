"""``games.kit.frozen``: ``evolve`` gives what ``dataclasses.replace`` gives and leaves the
original alone (the frozen dataclasses that still use it), and ``Frozen`` (the native
state classes of Chronovore and Quest) compares, hashes and shows its fields as the
dataclasses did."""

from __future__ import annotations

import dataclasses

import pytest

from games.chronovore.state import Weapon
from games.kit.chance import RandomState
from games.kit.frozen import Frozen, evolve
from games.quest.state import Creature
from games.quest.statuses import ActivePoison, ActiveStun
from tests.unit.games.quest.support import creature, prepare_battle


def test_evolve_equals_replace_and_changes_nothing_in_place() -> None:
    rng = RandomState(3, counter=4, stream="s")
    for changes in ({"counter": 7}, {"seed": 9, "stream": "t"}, {}):
        evolved = evolve(rng, **changes)
        assert evolved == dataclasses.replace(rng, **changes)
        assert evolved is not rng
        assert hash(evolved) == hash(dataclasses.replace(rng, **changes))
    assert rng == RandomState(3, counter=4, stream="s")


def test_an_evolved_copy_is_still_frozen() -> None:
    hurt = evolve(RandomState(5), counter=2)
    assert hurt == RandomState(5, counter=2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        hurt.counter = 3  # type: ignore[misc]


def test_frozen_values_are_equal_field_by_field_within_one_class() -> None:
    # Real subclasses (compiled, a Python class cannot subclass the native ``Frozen``).
    assert ActivePoison(2, 3, 1) == ActivePoison(2, 3, 1)
    assert ActivePoison(2, 3, 1) is not ActivePoison(2, 3, 1)
    assert ActivePoison(2, 3, 1) != ActivePoison(2, 3, 2)
    assert ActiveStun(1, 2) != Weapon(1, 2)  # as a dataclass: one class only
    assert ActiveStun(1, 2) != (1, 2)
    assert isinstance(ActiveStun(1, 2), Frozen)
    assert hash(ActivePoison(2, 3, 1)) == hash(ActivePoison(2, 3, 1))
    assert len({ActiveStun(1, 2), ActiveStun(1, 2), ActiveStun(2, 1)}) == 2
    assert repr(ActiveStun(1, 4)) == "ActiveStun(turns=1, since_turn=4)"
    assert repr(Weapon(2, 1)) == "Weapon(attack=2, durability=1)"


def test_frozen_compares_its_fields_by_their_own_equality() -> None:
    # Equal values that are not one object (compiled, ``==`` of two values typed as a
    # Python dataclass could become identity: Frozen compares them untyped).
    first = Creature.fresh(creature("Twin"))
    second = Creature.fresh(creature("Twin"))
    assert first.card is not second.card
    assert first == second and hash(first) == hash(second)
    assert first != first.replace(hp=1)
    state = prepare_battle(seed=2)
    again = state.replace(random=RandomState(state.random.seed, state.random.counter))
    assert again.random is not state.random
    assert again == state
    assert again != state.replace(random=RandomState(state.random.seed, 99))
