"""A match keeps the CPU policy it started with (docs/fairness.md, "CPU policy versions"):
a new match records the current one (``cpu.py``), a state saved before matches recorded
one loads as policy 1 (``cpu_v1.py``) and its CPU plays policy 1, so a live match does
not change course across an upgrade and a finished one still verifies."""

import pytest

from games.chronovore import CHRONOVORE, CHRONOVORE_CPU, cpu, cpu_v1, engine
from games.chronovore.actions import Action, ActionKind
from games.chronovore.balance import cards_from_entries, class_deck
from games.chronovore.state import CPU_POLICY, LEGACY_CPU_POLICY, MatchState, Settings
from games.kit.chance import RandomState

from .support import T0, A, B, core_set_entries, deck, hero, prepare

# Issue 30: on 28 Health with these in hand, policy 1 holds First Mate (a safe fight worth
# less than its Health) and locks an empty row; policy 2 plays it.
HAND = ("Broadside", "Captain Chronos", "Salvo Drill", "First Mate", "Cutlass Crate")


def held_first_mate(settings: Settings) -> MatchState:
    core = {card.name: card for card in cards_from_entries(core_set_entries())}
    state = prepare(a_hand=tuple(core[name] for name in HAND), a_hero=hero(28), round=3)
    return state.replace(settings=settings)


def saved_before_policies(state: MatchState) -> dict:
    """The state as the release before CPU policies stored it: no ``cpu_policy``."""
    data = CHRONOVORE.to_json(state)
    del data["settings"]["cpu_policy"]
    return data


def test_the_two_policies_differ_here():
    state = held_first_mate(Settings())
    assert cpu_v1.cpu_action(state, A) == Action.lock()
    assert cpu.cpu_action(state, A).kind is ActionKind.PLACE


def test_a_new_match_records_the_current_policy_and_its_cpu_plays_it():
    assert CPU_POLICY == cpu.VERSION == 2 and cpu_v1.VERSION == LEGACY_CPU_POLICY == 1
    state = CHRONOVORE.new_match(None, {A: deck(), B: deck()}, 1, T0)
    assert state.settings.cpu_policy == cpu.VERSION
    saved = CHRONOVORE.to_json(state)
    assert saved["settings"]["cpu_policy"] == cpu.VERSION
    assert CHRONOVORE.from_json(saved).settings.cpu_policy == cpu.VERSION
    played = held_first_mate(Settings())
    assert CHRONOVORE_CPU(played, A) == cpu.cpu_action(played, A)


def test_a_state_saved_without_a_policy_loads_as_policy_1_and_its_cpu_plays_policy_1():
    loaded = CHRONOVORE.from_json(saved_before_policies(held_first_mate(Settings())))
    assert loaded.settings.cpu_policy == LEGACY_CPU_POLICY
    assert CHRONOVORE_CPU(loaded, A) == Action.lock() == cpu_v1.cpu_action(loaded, A)
    assert CHRONOVORE.to_json(loaded)["settings"]["cpu_policy"] == LEGACY_CPU_POLICY


def test_a_live_match_saved_without_a_policy_plays_on_with_policy_1_to_the_end():
    # As the service holds a match: loaded from its stored JSON before every action.
    cards = cards_from_entries(core_set_entries())
    first, rng = class_deck(cards, "captain", RandomState(seed=4, stream="test-decks"))
    second, _ = class_deck(cards, "priest", rng)
    started = engine.new_match({A: first, B: second}, 4, T0, Settings(cpu_policy=1))
    saved, other_course = saved_before_policies(started), 0
    while True:
        state = CHRONOVORE.from_json(saved)
        if CHRONOVORE.results(state) is not None:
            break
        seat = CHRONOVORE.waiting_for(state)[0]
        action = CHRONOVORE_CPU(state, seat) if seat == A else Action.lock()
        if seat == A:
            assert action == cpu_v1.cpu_action(state, A)
            other_course += action != cpu.cpu_action(state, A)
        state, _ = CHRONOVORE.apply(state, seat, action, T0)
        saved = CHRONOVORE.to_json(state)
    assert state.settings.cpu_policy == LEGACY_CPU_POLICY and state.round > 1
    assert other_course  # policy 2 would have left this match's course


def test_a_policy_no_release_had_is_refused():
    with pytest.raises(ValueError, match="unknown Chronovore CPU policy 9"):
        CHRONOVORE.new_match(Settings(cpu_policy=9), {A: deck(), B: deck()}, 1, T0)
    data = CHRONOVORE.to_json(held_first_mate(Settings()))
    data["settings"]["cpu_policy"] = 9
    with pytest.raises(ValueError, match="unknown Chronovore CPU policy 9"):
        CHRONOVORE.from_json(data)
