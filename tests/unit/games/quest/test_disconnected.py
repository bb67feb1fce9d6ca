"""Live PvP's end for a disconnected player (ours, docs/quest-pvp.md, "Reconnect"): the
battle sweeper applies ``disconnected`` for the side whose player stayed away 90 seconds;
it ends the match as that side's forfeit, on either side's turn, with its own finish
reason. An elapsed window goes first; outside live matches it is refused."""

from __future__ import annotations

from datetime import timedelta

import pytest

from games.quest import QUEST, Action, Phase, Settings, apply, new_match, replay
from games.quest.errors import IllegalAction, RefusalCode
from games.quest.state import FinishReason, MissedDeadline
from tests.unit.games.quest.support import CPU, PLAYER, T0, deck
from tests.unit.games.quest.test_live import LIVE, _miss_turns_of, in_turn, live_match

ASYNC = Settings(turn_seconds=24 * 3600, missed_deadline=MissedDeadline.FORFEIT)


@pytest.mark.parametrize("gone", [PLAYER, CPU])
def test_a_disconnected_side_forfeits_on_either_turn(gone):
    state = in_turn()
    after, events = apply(state, gone, Action.disconnected(), state.deadline - timedelta(seconds=1))
    assert (after.phase, after.winner, after.finish_reason) == (
        Phase.FINISHED,
        gone.other,
        FinishReason.DISCONNECTED,
    )
    assert events[0] == {"type": "disconnected", "side": str(gone)}
    assert QUEST.results(after) == {str(gone): "forfeit", str(gone.other): "victory"}
    assert QUEST.view(after, str(gone.other))["finish_reason"] == "disconnected"


def test_during_the_initial_selection_too():
    after, _ = apply(live_match(), CPU, Action.disconnected(), T0)
    assert (after.winner, after.finish_reason) == (PLAYER, FinishReason.DISCONNECTED)


def test_an_elapsed_third_window_goes_first():
    state = in_turn()
    absent = state.turn
    state = _miss_turns_of(state, absent, 2)
    while state.turn is not absent:
        state, _ = apply(state, state.turn, Action.timeout(), state.deadline - timedelta(0, 0, 1))
    after, events = apply(state, absent, Action.disconnected(), state.deadline)
    assert (after.winner, after.finish_reason) == (absent.other, FinishReason.TIMEOUTS)
    assert events[-1] == {"type": "action_ignored", "side": str(absent), "action": "disconnected"}


def test_an_elapsed_window_times_out_then_the_disconnection_ends_it():
    state = in_turn()
    mover = state.turn
    after, events = apply(state, mover.other, Action.disconnected(), state.deadline)
    assert events[0] == {"type": "timeout", "side": str(mover), "reason": "deadline"}
    assert events[-2] == {"type": "disconnected", "side": str(mover.other)}
    assert (after.winner, after.finish_reason) == (mover, FinishReason.DISCONNECTED)


def test_refused_outside_live_matches():
    asynchronous = new_match(deck(None), deck(None), 0, T0, ASYNC)
    with pytest.raises(IllegalAction) as refused:
        apply(asynchronous, PLAYER, Action.disconnected(), T0)
    assert refused.value.code == RefusalCode.INVALID_ACTION
    cpu_battle = new_match(deck(None), deck(None), 0, T0)
    with pytest.raises(IllegalAction):
        apply(cpu_battle, PLAYER, Action.disconnected(), T0)


def test_never_among_the_legal_actions():
    from games.quest import legal_actions

    assert all(a.kind != "disconnected" for a in legal_actions(in_turn(), PLAYER))


def test_the_log_replays_to_the_same_match():
    start = live_match(3)
    state, _ = apply(start, PLAYER, Action.select_creature(0), T0)
    end, _ = apply(state, CPU, Action.disconnected(), T0 + timedelta(seconds=5))
    log = [
        (PLAYER, Action.select_creature(0), T0),
        (CPU, Action.disconnected(), T0 + timedelta(seconds=5)),
    ]
    assert replay(start, log) == end
    assert Action.from_dict({"kind": "disconnected"}) == Action.disconnected()
    assert LIVE.missed_deadline is MissedDeadline.LIVE
