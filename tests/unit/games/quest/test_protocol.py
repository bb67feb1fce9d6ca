"""Quest against the engine protocol of games/kit (``QUEST``): a CPU-against-CPU match
played live and replayed from seed + log, with the global random disturbed mid-game."""

from __future__ import annotations

import json
import random
from datetime import timedelta

import pytest

from games.kit.refusal import Refusal
from games.quest import QUEST, Action, Phase, Settings, Side, cpu_action
from tests.unit.games.quest.support import T0, catalogue_deck

SETTINGS = Settings()


def _seats():
    return {
        Side.PLAYER: catalogue_deck(("Quillip", "Voltiki", "Karrik", "Field Kit", "Mirror Ward")),
        Side.CPU: catalogue_deck(("Pebblup", "Wispurr", "Runelet", "War Drum", "Smoke Pellet")),
    }


def live_cpu_match(seed: int, disturb: bool):
    """Both seats played by the CPU policy; every action goes into the log."""
    state = QUEST.new_match(SETTINGS, _seats(), seed, T0)
    log = []
    for step in range(500):
        if state.phase is Phase.FINISHED:
            break
        if disturb:  # the engine must not care what the global random does
            random.seed(step * 7919)
            random.random()
        seat = next(s for s in Side if QUEST.legal_actions(state, s) and _must_act(state, s))
        action = cpu_action(state, seat)
        assert action is not None
        now = T0 + timedelta(seconds=step)
        before = QUEST.to_json(state)
        after, _events = QUEST.apply(state, seat, action, now)
        assert QUEST.to_json(state) == before  # apply never mutates its input
        state = after
        log.append((str(seat), QUEST.action_to_json(action), now))
    return state, log


def _must_act(state, seat: Side) -> bool:
    return seat in state.pending or (state.phase is Phase.NORMAL_TURN and state.turn is seat)


@pytest.mark.parametrize("seed", [1, 2, 3, 42])
def test_replay_of_seed_and_log_equals_live_play_whatever_the_global_random_does(seed):
    live, log = live_cpu_match(seed, disturb=True)
    assert live.phase is Phase.FINISHED
    again, _ = live_cpu_match(seed, disturb=False)
    assert QUEST.to_json(again) == QUEST.to_json(live)
    actions = [(seat, QUEST.action_from_json(action), at) for seat, action, at in log]
    replayed = QUEST.replay(SETTINGS, _seats(), seed, T0, actions)
    assert QUEST.to_json(replayed) == QUEST.to_json(live)
    # Serialisation: what a host stores reads back as the same state.
    stored = json.loads(json.dumps(QUEST.to_json(live)))
    assert QUEST.from_json(stored) == live


def test_apply_refuses_before_any_change_and_never_mutates_its_input():
    state = QUEST.new_match(SETTINGS, _seats(), 5, T0)
    before = QUEST.to_json(state)
    with pytest.raises(Refusal) as refused:
        QUEST.apply(state, Side.PLAYER, Action.use_move(0), T0)  # still selecting
    assert refused.value.code == "wrong_phase"
    after, _ = QUEST.apply(state, Side.PLAYER, Action.select_creature(0), T0)
    assert QUEST.to_json(state) == before
    assert after != state


def test_a_malformed_action_is_a_refusal():
    with pytest.raises(Refusal) as refused:
        QUEST.action_from_json({"kind": "cheat"})
    assert refused.value.code == "invalid_action"


def test_view_hides_what_the_seat_may_not_see():
    state = QUEST.new_match(SETTINGS, _seats(), 5, T0)
    state, _ = QUEST.apply(state, Side.PLAYER, Action.select_creature(1), T0)
    seen = QUEST.view(state, Side.CPU)
    cpu_view = json.dumps(seen)
    for hidden in ("Quillip", "Voltiki", "Karrik"):  # a bench and an unrevealed pick
        assert hidden not in cpu_view
    assert "random" not in seen and "counter" not in cpu_view  # nor the chance stream
    assert "Voltiki" in json.dumps(QUEST.view(state, Side.PLAYER))


def test_deadline_and_expire():
    state = QUEST.new_match(SETTINGS, _seats(), 5, T0)
    assert QUEST.deadline(state) is None  # no clock runs while selecting
    for seat in Side:
        state, _ = QUEST.apply(state, seat, Action.select_creature(0), T0)
    deadline = QUEST.deadline(state)
    assert deadline == T0 + timedelta(seconds=SETTINGS.turn_seconds)
    mover = state.turn
    unchanged, events = QUEST.expire(state, deadline - timedelta(microseconds=1))
    assert (unchanged, events) == (state, [])
    expired, events = QUEST.expire(state, deadline)  # exactly at the deadline is too late
    assert events[0] == {"type": "timeout", "side": str(mover), "reason": "deadline"}
    assert expired.turn is mover.other


# -- what a host asks besides the rules: who is waited for, results, timeouts ---------------


@pytest.mark.parametrize("seed", [1, 2, 3, 42])
def test_waiting_for_names_exactly_the_seats_that_must_act_until_results_come(seed):
    state = QUEST.new_match(SETTINGS, _seats(), seed, T0)
    for step in range(500):
        waited = QUEST.waiting_for(state)
        assert waited == [str(s) for s in Side if _must_act(state, s)]
        assert QUEST.version(state) == step
        if state.phase is Phase.FINISHED:
            break
        assert QUEST.results(state) is None
        state, _ = QUEST.apply(state, waited[0], cpu_action(state, waited[0]), T0)
    results = QUEST.results(state)
    assert waited == [] and results is not None
    assert sorted(results.values()) == ["defeat", "victory"]
    assert results[str(state.winner)] == "victory"


def test_expire_is_applying_the_timeouts_and_there_are_none_outside_a_normal_turn():
    state = QUEST.new_match(SETTINGS, _seats(), 5, T0)
    assert QUEST.timeouts(state) == []  # initial selection: no clock runs
    for seat in (Side.PLAYER, Side.CPU):
        state, _ = QUEST.apply(state, seat, Action.select_creature(0), T0)
    assert state.phase is Phase.NORMAL_TURN
    deadline = QUEST.deadline(state)
    [(seat, action)] = QUEST.timeouts(state)
    assert (seat, action) == (str(state.turn), Action.timeout())
    assert QUEST.expire(state, deadline) == QUEST.apply(state, seat, action, deadline)


def test_a_forfeit_is_the_forfeiting_seats_result_and_the_others_victory():
    state = QUEST.new_match(SETTINGS, _seats(), 5, T0)
    state, _ = QUEST.apply(state, "player", Action.forfeit(), T0)
    assert QUEST.results(state) == {"player": "forfeit", "cpu": "victory"}
