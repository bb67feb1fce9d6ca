"""Live PvP's windows (ours, docs/quest-pvp.md, "Live PvP"): every turn and selection has
a 60-second window; a missed turn times out and play goes on, a missed selection picks the
first living Creature in deck order, and three missed windows in a row by one side end the
match as its forfeit. A decision in time starts the count again."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from games.quest import (
    QUEST,
    Action,
    ActionKind,
    MatchState,
    Phase,
    Settings,
    apply,
    legal_actions,
    new_match,
    replay,
)
from games.quest.engine import expire, missed_by
from games.quest.live import TIMEOUTS_TO_FORFEIT
from games.quest.state import FinishReason, MissedDeadline
from tests.unit.games.quest.support import CPU, PLAYER, T0, creature, deck
from tests.unit.games.quest.test_properties import bounded, decks, rolls

MINUTE = timedelta(seconds=60)
TICK = timedelta(microseconds=1)
LIVE = Settings(turn_seconds=60, missed_deadline=MissedDeadline.LIVE)


def live_match(seed: int = 0, **decks) -> MatchState:
    return new_match(deck(decks.get("player")), deck(decks.get("cpu")), seed, T0, LIVE)


def in_turn(seed: int = 0) -> MatchState:
    state = live_match(seed)
    state, _ = apply(state, PLAYER, Action.select_creature(1), T0)
    state, _ = apply(state, CPU, Action.select_creature(1), T0)
    assert state.phase is Phase.NORMAL_TURN
    return state


def test_a_missed_initial_selection_picks_the_first_creature_for_each_missing_side():
    state, _ = apply(live_match(), CPU, Action.select_creature(2), T0 + timedelta(seconds=30))
    assert state.deadline == T0 + MINUTE  # choosing does not restart the other's window
    unchanged, events = expire(state, T0 + MINUTE - TICK)
    assert (unchanged, events) == (state, [])
    after, events = expire(state, T0 + MINUTE)  # exactly at the deadline counts as missed
    assert after.phase is Phase.NORMAL_TURN  # play goes on
    assert (after.player.active, after.cpu.active) == (0, 2)
    assert after.timeouts_in_row == (1, 0)
    assert events[0] == {
        "type": "timeout",
        "side": "player",
        "reason": "deadline",
        "phase": "initial_selection",
    }
    assert after.deadline == T0 + 2 * MINUTE  # the first turn's own window


def test_both_missing_both_get_their_first_creature():
    after, _ = expire(live_match(), T0 + MINUTE)
    assert (after.player.active, after.cpu.active, after.timeouts_in_row) == (0, 0, (1, 1))


def test_a_missed_selection_skips_a_defeated_creature():
    frail = creature("Frail", hp=10)  # falls to one Poke (10 damage)
    for seed in range(64):
        state = live_match(seed, cpu=[frail])
        state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
        state, _ = apply(state, CPU, Action.select_creature(0), T0)
        if state.turn is PLAYER:
            break
    at = T0 + timedelta(seconds=20)
    state, _ = apply(state, PLAYER, Action.use_move(0), at)
    assert state.phase is Phase.MANDATORY_REPLACEMENT and state.pending == (CPU,)
    assert state.deadline == at + MINUTE and QUEST.timeouts(state) == [("cpu", Action.timeout())]
    after, _ = expire(state, at + MINUTE)
    assert after.cpu.active == 1 and after.phase is Phase.NORMAL_TURN


def test_a_late_selection_is_replaced_and_its_index_stays_unknown():
    state, _ = apply(live_match(), CPU, Action.select_creature(0), T0)
    after, events = apply(state, PLAYER, Action.select_creature(2), T0 + MINUTE)
    assert after.player.active == 0
    assert events[0]["replaced_action"] == {"kind": "select_creature"}


def test_a_missed_turn_times_out_and_play_goes_on():
    state = in_turn()
    mover = state.turn
    assert mover is not None
    after, events = expire(state, state.deadline)  # type: ignore[arg-type]
    assert after.phase is Phase.NORMAL_TURN and after.turn is mover.other
    assert events[0] == {"type": "timeout", "side": str(mover), "reason": "deadline"}
    assert after.timeouts_in_row[0 if mover is PLAYER else 1] == 1


def _miss_turns_of(state: MatchState, absent, times: int) -> MatchState:
    """``absent`` misses its turns, the other passes in time, ``times`` windows of
    ``absent`` in all."""
    missed = 0
    while missed < times and state.phase is Phase.NORMAL_TURN:
        assert state.deadline is not None
        if state.turn is absent:
            state, _ = expire(state, state.deadline)
            missed += 1
        else:
            state, _ = apply(state, state.turn, Action.timeout(), state.deadline - TICK)
    return state


def test_three_missed_windows_in_a_row_forfeit():
    state = in_turn()
    absent = state.turn
    two = _miss_turns_of(state, absent, TIMEOUTS_TO_FORFEIT - 1)
    assert two.phase is Phase.NORMAL_TURN
    three = _miss_turns_of(two, absent, 1)
    assert (three.phase, three.winner, three.finish_reason) == (
        Phase.FINISHED,
        absent.other,
        FinishReason.TIMEOUTS,
    )
    assert QUEST.results(three) == {str(absent): "forfeit", str(absent.other): "victory"}


def test_a_decision_in_time_starts_the_count_again():
    state = in_turn()
    absent = state.turn
    state = _miss_turns_of(state, absent, 2)
    while state.turn is not absent:  # the other side passes in time
        state, _ = apply(state, state.turn, Action.timeout(), state.deadline - TICK)
    state, _ = apply(state, absent, Action.timeout(), state.deadline - TICK)  # in time
    assert state.timeouts_in_row == (0, 0)
    state = _miss_turns_of(state, absent, 2)
    assert state.phase is Phase.NORMAL_TURN


def test_the_third_timeout_goes_before_a_forfeit_of_the_other_side():
    state = in_turn()
    absent = state.turn
    state = _miss_turns_of(state, absent, 2)
    while state.turn is not absent:
        state, _ = apply(state, state.turn, Action.timeout(), state.deadline - TICK)
    after, events = apply(state, absent.other, Action.forfeit(), state.deadline)
    assert (after.winner, after.finish_reason) == (absent.other, FinishReason.TIMEOUTS)
    assert events[-1] == {"type": "action_ignored", "side": str(absent.other), "action": "forfeit"}


def test_each_side_sees_both_counts():
    state = _miss_turns_of(in_turn(), in_turn().turn, 1)
    absent = in_turn().turn
    assert QUEST.view(state, str(absent))["timeouts_in_row"] == {"you": 1, "opponent": 0}
    assert QUEST.view(state, str(absent.other))["timeouts_in_row"] == {"you": 0, "opponent": 1}


def test_the_rule_and_the_count_survive_storage():
    state = _miss_turns_of(in_turn(), in_turn().turn, 1)
    assert state.to_dict()["timeouts_in_row"] in ([1, 0], [0, 1])
    assert MatchState.from_dict(state.to_dict()) == state


# -- random play across windows: the log replays to the same match --------------------------

GAPS = [timedelta(seconds=5)] * 8 + [MINUTE - TICK, MINUTE, MINUTE + TICK, 3 * MINUTE]


@bounded(60)
@given(player=decks, cpu=decks, seed=st.integers(0, 2**63 - 1), choices=rolls)
def test_live_play_with_timeouts_replays_to_the_same_match(player, cpu, seed, choices):
    initial = new_match(player, cpu, seed, T0, LIVE)
    state, now, log = initial, T0, []
    for _ in range(80):
        if state.phase is Phase.FINISHED:
            break
        assert state.deadline is not None  # every open decision has its window
        now += choices.pick(GAPS)
        if now >= state.deadline and choices.pick(range(2)) == 0:
            side, action = missed_by(state), Action.timeout()  # the sweeper's
        else:
            options = {
                s: [a for a in legal_actions(state, s) if a.kind is not ActionKind.FORFEIT]
                for s in (PLAYER, CPU)
            }
            side = choices.pick([s for s in (PLAYER, CPU) if options[s]])
            action = choices.pick(options[side])
        late = now >= state.deadline
        state, events = apply(state, side, action, now)
        log.append((side, action, now))
        assert not late or any(e["type"] == "timeout" for e in events)
        assert max(state.timeouts_in_row) <= TIMEOUTS_TO_FORFEIT
        if state.finish_reason is FinishReason.TIMEOUTS:
            assert TIMEOUTS_TO_FORFEIT in state.timeouts_in_row
    assert replay(initial, log) == state
