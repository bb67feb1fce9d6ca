"""``games.kit.frozen``: ``evolve`` gives what ``dataclasses.replace`` gives and leaves the
original alone (the frozen dataclasses that still use it), and ``Frozen`` (the native
state classes of Chronovore and Quest) compares, hashes and shows its fields as the
dataclasses did."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from games.kit.chance import RandomState
from games.kit.frozen import Frozen, evolve
from games.quest.state import Creature
from games.quest.statuses import ActivePoison, ActiveStun
from tests.unit.games.quest.support import creature


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


class Pair(Frozen):
    left: Any
    right: Any

    def __init__(self, left: Any, right: Any) -> None:
        self.left = left
        self.right = right

    def fields(self) -> dict[str, Any]:
        return {"left": self.left, "right": self.right}


class OtherPair(Pair):
    pass


def test_frozen_values_are_equal_field_by_field_within_one_class() -> None:
    assert Pair(1, (2, 3)) == Pair(1, (2, 3))
    assert Pair(1, (2, 3)) is not Pair(1, (2, 3))
    assert Pair(1, 2) != Pair(2, 1)
    assert Pair(1, 2) != OtherPair(1, 2)  # as a dataclass: one class only
    assert Pair(1, 2) != (1, 2)
    assert hash(Pair(1, (2, 3))) == hash(Pair(1, (2, 3)))
    assert len({Pair(1, 2), Pair(1, 2), Pair(2, 1)}) == 2
    assert repr(Pair(1, "a")) == "Pair(left=1, right='a')"


def test_frozen_compares_its_fields_by_their_own_equality() -> None:
    # Equal values that are not one object (compiled, ``==`` of two values typed as a
    # Python dataclass could become identity: Frozen compares them untyped).
    first = Pair(RandomState(5, counter=1), Creature.fresh(creature("Twin")))
    second = Pair(RandomState(5, counter=1), Creature.fresh(creature("Twin")))
    assert first.left is not second.left and first.right.card is not second.right.card
    assert first == second
    assert first != Pair(RandomState(5, counter=2), first.right)


def test_quest_statuses_compare_as_values() -> None:
    assert ActivePoison(2, 3, 1) == ActivePoison(2, 3, 1)
    assert ActivePoison(2, 3, 1) != ActivePoison(2, 3, 2)
    assert ActiveStun(1, 1) != ActivePoison(1, 1, 0)
    assert repr(ActiveStun(1, 4)) == "ActiveStun(turns=1, since_turn=4)"
