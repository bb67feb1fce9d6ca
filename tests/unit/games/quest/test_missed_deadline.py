"""Asynchronous PvP's decision windows (rulebook, "Asynchronous PvP"): every turn and every
selection has one; missing it ends the match by forfeit of the side that missed it, never
a skip; an elapsed window goes before a voluntary resignation. CPU battles keep theirs."""

from __future__ import annotations

from datetime import timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.quest import (
    QUEST,
    Action,
    ActionKind,
    MatchState,
    Phase,
    Settings,
    Side,
    apply,
    legal_actions,
    new_match,
    replay,
)
from games.quest.engine import expire, missed_by
from games.quest.state import FinishReason, MissedDeadline
from tests.unit.games.quest.support import CPU, PLAYER, T0, creature, deck
from tests.unit.games.quest.test_properties import bounded, decks, rolls

DAY = timedelta(hours=24)
TICK = timedelta(microseconds=1)
ASYNC = Settings(turn_seconds=24 * 60 * 60, missed_deadline=MissedDeadline.FORFEIT)


def async_match(seed: int = 0, **decks) -> MatchState:
    return new_match(deck(decks.get("player")), deck(decks.get("cpu")), seed, T0, ASYNC)


def in_turn(seed: int = 0) -> MatchState:
    state = async_match(seed)
    state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
    state, _ = apply(state, CPU, Action.select_creature(0), T0)
    assert state.phase is Phase.NORMAL_TURN
    return state


def test_the_initial_selection_has_a_window_that_choosing_does_not_restart():
    state = async_match()
    assert state.deadline == T0 + DAY
    state, _ = apply(state, CPU, Action.select_creature(1), T0 + timedelta(hours=23))
    assert state.deadline == T0 + DAY and missed_by(state) is PLAYER


def test_a_normal_turn_missed_forfeits_the_mover_exactly_at_the_deadline():
    state = in_turn()
    mover = state.turn
    assert mover is not None and state.deadline == T0 + DAY
    unchanged, events = expire(state, T0 + DAY - TICK)
    assert (unchanged, events) == (state, [])
    after, events = expire(state, T0 + DAY)
    assert (after.phase, after.winner, after.finish_reason) == (
        Phase.FINISHED,
        mover.other,
        FinishReason.MISSED_DEADLINE,
    )
    assert after.turn_number == state.turn_number  # no other turn began: not a skip
    assert events[0] == {"type": "deadline_missed", "side": str(mover)}
    assert QUEST.results(after) == {str(mover): "forfeit", str(mover.other): "victory"}
    assert QUEST.deadline(after) is None and QUEST.timeouts(after) == []


def test_the_elapsed_window_goes_before_the_other_sides_resignation():
    state = in_turn()
    mover = state.turn
    assert mover is not None
    after, events = apply(state, mover.other, Action.forfeit(), T0 + DAY)
    assert after.winner is mover.other
    assert events[0]["replaced_action"] == {"side": str(mover.other), "kind": "forfeit"}
    # A moment earlier it is a resignation like any other.
    resigned, _ = apply(state, mover.other, Action.forfeit(), T0 + DAY - TICK)
    assert (resigned.winner, resigned.finish_reason) == (mover, FinishReason.FORFEIT)


def test_a_late_move_is_not_applied_but_forfeits():
    state = in_turn()
    mover = state.turn
    assert mover is not None
    after, events = apply(state, mover, Action.use_move(0), T0 + DAY)
    assert after.winner is mover.other
    assert [e["type"] for e in events] == ["deadline_missed", "match_finished"]


def test_a_mandatory_replacement_has_its_own_window():
    frail = creature("Frail", hp=10)  # falls to one Poke (10 damage)
    for seed in range(64):
        state = async_match(seed, cpu=[frail])
        state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
        state, _ = apply(state, CPU, Action.select_creature(0), T0)
        if state.turn is PLAYER:
            break
    at = T0 + timedelta(hours=5)
    state, _ = apply(state, PLAYER, Action.use_move(0), at)
    assert state.phase is Phase.MANDATORY_REPLACEMENT and state.pending == (CPU,)
    assert state.deadline == at + DAY and QUEST.deadline(state) == at + DAY
    assert QUEST.timeouts(state) == [("cpu", Action.timeout())]
    after, _ = expire(state, at + DAY)
    assert (after.winner, after.finish_reason) == (PLAYER, FinishReason.MISSED_DEADLINE)


def test_a_late_selection_is_not_made_and_its_creature_stays_unknown():
    state, _ = apply(async_match(), CPU, Action.select_creature(0), T0)
    after, events = apply(state, PLAYER, Action.select_creature(2), T0 + DAY)
    assert (after.winner, after.player.choice) == (CPU, None)
    assert events[0] == {
        "type": "deadline_missed",
        "side": "player",
        "replaced_action": {"side": "player", "kind": "select_creature"},
    }


def test_both_missing_the_initial_selection_the_challengers_side_loses():
    after, events = expire(async_match(), T0 + DAY)
    assert after.winner is CPU and events[0]["side"] == "player"


@pytest.mark.parametrize("seed", range(5))
def test_cpu_battles_keep_their_timeouts_and_untimed_selections(seed):
    state = new_match(deck(), deck(), seed, T0)
    assert state.deadline is None and QUEST.timeouts(state) == []
    assert "missed_deadline" not in state.to_dict()  # their stored form is unchanged
    state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
    state, _ = apply(state, CPU, Action.select_creature(0), T0)
    mover = state.turn
    assert mover is not None
    after, events = expire(state, state.deadline)  # type: ignore[arg-type]
    assert after.phase is not Phase.FINISHED and events[0]["type"] == "timeout"


def test_the_rule_survives_storage():
    state = in_turn()
    assert MatchState.from_dict(state.to_dict()) == state
    assert state.missed_deadline is MissedDeadline.FORFEIT
    assert Side(QUEST.waiting_for(state)[0]) is state.turn


# -- random play across windows -------------------------------------------------------------

# Mostly in good time, so that games get far; now and then exactly at, just before or
# after a window's end.
GAPS = [timedelta(minutes=1)] * 12 + [timedelta(hours=5)] * 4 + [DAY - TICK, DAY, DAY + TICK]


@bounded(60)
@given(player=decks, cpu=decks, seed=st.integers(0, 2**63 - 1), choices=rolls)
def test_every_open_decision_has_a_window_and_only_a_missed_one_forfeits(
    player, cpu, seed, choices
):
    initial = new_match(player, cpu, seed, T0, ASYNC)
    state, now, log = initial, T0, []
    window_start = T0
    for _ in range(60):
        if state.phase is Phase.FINISHED:
            break
        assert state.deadline == window_start + DAY  # every open decision has its window
        now += choices.pick(GAPS)
        late = now >= state.deadline
        loser = missed_by(state)
        options = {  # a resignation ends a game at once: left out, as elsewhere
            s: [a for a in legal_actions(state, s) if a.kind is not ActionKind.FORFEIT]
            for s in (PLAYER, CPU)
        }
        side = choices.pick([s for s in (PLAYER, CPU) if options[s]])
        action = choices.pick(options[side])
        before = state
        state, _ = apply(state, side, action, now)
        log.append((side, action, now))
        if late:
            assert (state.winner, state.finish_reason) == (
                loser.other if loser else None,
                FinishReason.MISSED_DEADLINE,
            )
        else:
            assert state.finish_reason is not FinishReason.MISSED_DEADLINE
        if (state.phase, state.turn, state.turn_number) != (
            before.phase,
            before.turn,
            before.turn_number,
        ):
            window_start = now  # a new turn or replacement: a new window
    assert replay(initial, log) == state
