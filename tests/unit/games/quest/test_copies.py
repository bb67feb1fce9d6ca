"""Quest's state copies (``replace``, ``with_side``, ``with_version``, ``turned``,
``with_choice``, ``with_creature``): what ``dataclasses.replace`` gave, field by field,
a new value each time, the original untouched."""

from __future__ import annotations

from datetime import timedelta
from fractions import Fraction
from typing import Any

import pytest

from games.quest.state import (
    Creature,
    FinishReason,
    MatchState,
    Phase,
    Side,
    SideState,
)
from games.quest.statuses import (
    NO_STATUSES,
    ActiveModifier,
    ActivePoison,
    ActiveReflect,
    Statuses,
)
from games.quest.vocabulary import AppliesTo
from tests.unit.games.quest.support import creature, prepare_battle


def _replaced(value: Any, **changes: Any) -> Any:
    """The copy and a check of ``replace``'s meaning: every field as given or as it was."""
    before = value.fields()
    copy = value.replace(**changes)
    assert copy is not value
    assert type(copy) is type(value)
    assert copy.fields() == {**before, **changes}
    assert list(copy.fields()) == list(before)  # same fields, same order
    assert value.fields() == before  # the original is untouched
    return copy


def test_match_state_replace_changes_what_is_given_and_nothing_in_place() -> None:
    state = prepare_battle(seed=3)
    before = state.to_dict()
    for changes in ({"turn_number": 7}, {"turn": Side.CPU, "version": 9}, {}):
        copy = _replaced(state, **changes)
        assert (copy == state) == (not changes)
        if not changes:
            assert hash(copy) == hash(state)
            assert copy.to_dict() == before
    assert state.to_dict() == before


def test_replace_refuses_a_field_it_does_not_have() -> None:
    state = prepare_battle(seed=3)
    with pytest.raises(TypeError):
        state.replace(turns=3)
    with pytest.raises(TypeError):
        state.player.creatures[0].replace(health=3)


def test_every_state_class_replaces_as_dataclasses_did() -> None:
    state = prepare_battle(seed=4)
    fresh = Creature.fresh(creature("Copied"))
    hurt = _replaced(fresh, hp=1, statuses=Statuses(poison=ActivePoison(2, 3, 1)))
    assert (hurt.hp, fresh.hp) == (1, fresh.card.max_hp)
    assert fresh.statuses == Statuses() == NO_STATUSES and hurt.statuses.poisoned
    _replaced(state.player, discarded=(1,), active=None, choice=2)
    modifier = ActiveModifier(AppliesTo.DEALT, Fraction(2), None, 2, 1)
    _replaced(modifier, charges=1)
    statuses = Statuses(modifiers=(modifier,), dodge=2, reflect=ActiveReflect(Fraction(1), 1))
    _replaced(statuses, dodge=0, reflect=None)


def test_the_action_copies_equal_replace() -> None:
    state = prepare_battle(seed=5)
    before = state.to_dict()
    player, cpu = state.player, state.cpu
    assert state.with_version(8) == state.replace(version=8)
    assert state.with_sides(cpu, player) == state.replace(player=cpu, cpu=player)
    assert state.with_side(Side.PLAYER, cpu) == state.replace(player=cpu)
    assert state.with_side(Side.CPU, player) == state.replace(cpu=player)
    deadline = state.started_at + timedelta(seconds=5)
    turned = state.turned(
        cpu, player, Phase.FINISHED, (), None, 9, deadline, Side.CPU, FinishReason.FORFEIT, 4
    )
    assert turned == state.replace(
        player=cpu,
        cpu=player,
        phase=Phase.FINISHED,
        selecting=(),
        turn=None,
        turn_number=9,
        deadline=deadline,
        winner=Side.CPU,
        finish_reason=FinishReason.FORFEIT,
        version=4,
    )
    assert player.with_choice(None, 1) == player.replace(active=None, choice=1)
    hurt = player.creatures[1].replace(hp=0)
    assert player.with_creature(1, hurt) == player.replace(
        creatures=(player.creatures[0], hurt, *player.creatures[2:])
    )
    assert state.with_creature(Side.CPU, 0, hurt) == state.replace(
        cpu=cpu.replace(creatures=(hurt, *cpu.creatures[1:]))
    )
    assert state.to_dict() == before


def test_a_copy_equals_one_built_from_its_stored_form() -> None:
    state = prepare_battle(seed=6).replace(version=3)
    again = MatchState.from_dict(state.to_dict())
    assert again == state and hash(again) == hash(state)
    assert again.player == state.player and again.player is not state.player
    assert SideState.from_dict(state.cpu.to_dict()) == state.cpu
