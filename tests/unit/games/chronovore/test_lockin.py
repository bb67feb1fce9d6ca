"""Lock-in (rulebook, "Lock in"): place, move, take back, lock; the 2-minute step."""

from datetime import timedelta

import pytest

from games.chronovore import engine
from games.chronovore.actions import Action, ActionKind
from games.chronovore.rules import legal_actions
from games.chronovore.state import Phase
from games.kit.refusal import Refusal

from .support import T0, A, B, later, new


def uid(state, seat=A, n=0):
    return state.side(seat).hand[n].uid


def refused(state, seat, action, at=T0):
    with pytest.raises(Refusal) as exc:
        engine.apply(state, seat, action, at)
    return exc.value.code


def test_a_card_goes_from_the_hand_into_an_empty_slot():
    state = new()
    card = uid(state)
    after, events = engine.apply(state, A, Action.place(card, 2), T0)
    assert after.side(A).slots[2].uid == card
    assert card not in [i.uid for i in after.side(A).hand]
    assert len(after.side(A).hand) == 6 and events[0]["type"] == "card_placed"


def test_up_to_4_cards_in_4_slots():
    state = new()
    for slot in range(4):
        state, _ = engine.apply(state, A, Action.place(uid(state), slot), T0)
    assert all(state.side(A).slots)
    assert not [a for a in legal_actions(state, A) if a.kind is ActionKind.PLACE]
    assert refused(state, A, Action.place(uid(state), 0)) == "slot_taken"
    assert refused(state, A, Action.place(uid(state), 4)) == "unknown_slot"


def test_a_slotted_card_moves_to_another_slot_or_swaps_with_its_card():
    state = new()
    first, second = uid(state, n=0), uid(state, n=1)
    state, _ = engine.apply(state, A, Action.place(first, 0), T0)
    state, _ = engine.apply(state, A, Action.move(0, 3), T0)
    assert state.side(A).slots[0] is None and state.side(A).slots[3].uid == first
    state, _ = engine.apply(state, A, Action.place(second, 1), T0)
    state, _ = engine.apply(state, A, Action.move(1, 3), T0)
    assert state.side(A).slots[3].uid == second and state.side(A).slots[1].uid == first
    assert refused(state, A, Action.move(1, 1)) == "same_slot"
    assert refused(state, A, Action.move(0, 2)) == "slot_empty"


def test_a_slotted_card_is_taken_back_to_the_hand():
    state = new()
    card = uid(state)
    state, _ = engine.apply(state, A, Action.place(card, 1), T0)
    state, _ = engine.apply(state, A, Action.take_back(1), T0)
    assert state.side(A).slots[1] is None and state.side(A).hand[-1].uid == card
    assert refused(state, A, Action.take_back(1)) == "slot_empty"


def test_a_card_not_in_the_hand_cannot_be_placed():
    state = new()
    assert refused(state, A, Action.place(uid(state, B), 0)) == "card_not_in_hand"


def test_locking_in_with_empty_slots_is_allowed_and_fixes_the_row():
    state = new()
    state, events = engine.apply(state, A, Action.lock(), T0)
    assert state.side(A).locked and events == [{"type": "locked", "seat": A, "timed_out": False}]
    assert refused(state, A, Action.place(uid(state), 0)) == "already_locked"
    assert refused(state, A, Action.lock()) == "already_locked"
    assert legal_actions(state, A) == [Action.forfeit()]


def test_the_round_resolves_when_both_have_locked_in():
    state = new()
    state, _ = engine.apply(state, A, Action.lock(), T0)
    assert state.round == 1
    state, events = engine.apply(state, B, Action.lock(), later(5))
    assert state.round == 2 and not any(side.locked for side in state.sides)
    assert state.deadline == later(5) + timedelta(minutes=2)
    assert [e["type"] for e in events][:3] == ["locked", "heroes_entered", "pair_revealed"]


def test_each_choosing_step_lasts_2_minutes():
    state = new()
    assert state.deadline == T0 + timedelta(seconds=120)
    assert engine.apply(state, A, Action.place(uid(state), 0), later(119.999))[0].version == 1
    assert refused(state, A, Action.place(uid(state), 0), later(120)) == "choosing_time_over"


def test_when_the_time_runs_out_every_player_not_locked_in_is_locked_in():
    state = new()
    state, _ = engine.apply(state, A, Action.place(uid(state), 0), T0)
    state, _ = engine.apply(state, B, Action.lock(), T0)
    assert engine.timeouts(state) == [(A, Action.lock())]
    same, nothing = engine.expire(state, later(119))
    assert same is state and nothing == []
    after, events = engine.expire(state, later(120))
    assert events[0] == {"type": "locked", "seat": A, "timed_out": True}
    assert after.round == 2  # the placed card was played: resolution began
    assert after.side(A).discard[-1].uid == state.side(A).slots[0].uid


def test_time_running_out_with_nobody_locked_locks_both():
    state = new()
    assert engine.timeouts(state) == [(A, Action.lock()), (B, Action.lock())]
    after, _ = engine.expire(state, later(300))
    assert after.round == 2


def test_leaving_awards_the_other_player_the_win():
    state = new()
    state, events = engine.apply(state, B, Action.forfeit(), T0)
    assert state.phase is Phase.FINISHED and state.results == ("win", "left")
    assert events[0] == {"type": "left", "seat": B}
    assert refused(state, A, Action.lock()) == "match_finished"
    assert legal_actions(state, A) == [] and engine.timeouts(state) == []


def test_a_stranger_has_no_seat():
    assert refused(new(), "c", Action.lock()) == "not_a_seat"
    assert legal_actions(new(), "c") == []


@pytest.mark.parametrize(
    "data",
    [
        {"kind": "fly"},
        {"kind": "place", "card": 1},
        {"kind": "place", "card": "1", "slot": 0},
        {"kind": "lock", "slot": 0},
        [],
    ],
)
def test_a_malformed_action_is_refused(data):
    with pytest.raises(Refusal) as exc:
        Action.from_dict(data)
    assert exc.value.code == "invalid_action"


def test_every_legal_action_applies_and_round_trips_through_json():
    state = new()
    state, _ = engine.apply(state, A, Action.place(uid(state), 1), T0)
    for action in legal_actions(state, A):
        assert Action.from_dict(action.to_dict()) == action
        engine.apply(state, A, action, T0)
