"""Match flow (rulebook "CPU battles"): selection, chance, turns, replacement,
forfeit, deadlines; illegal actions refused without a change; views and the
state dict.
"""

from __future__ import annotations

import json
from datetime import datetime, timedelta

import pytest

from games.quest import (
    Action,
    FinishReason,
    IllegalAction,
    MatchState,
    Phase,
    RefusalCode,
    Settings,
    apply,
    expire,
    legal_actions,
    new_match,
    view,
    view_events,
)
from tests.unit.games.quest.support import (
    CPU,
    PLAYER,
    T0,
    act,
    active,
    creature,
    deck,
    dmg,
    move,
    of_type,
    pass_turn,
    power_card,
    prepare_battle,
    set_active,
)


def fresh(seed: int = 7) -> MatchState:
    cpu = deck([creature("Foe0"), creature("Foe1"), creature("Foe2")])
    return new_match(deck(), cpu, seed, T0)


def defeated(state: MatchState, side, index: int) -> MatchState:
    """Test setup: that Creature is already defeated."""
    return state.with_creature(side, index, state.side(side).creatures[index].replace(hp=0))


# --- selection and chance -------------------------------------------------


@pytest.mark.parametrize("order", [(PLAYER, CPU), (CPU, PLAYER)])
def test_both_sides_select_in_either_order_then_chance_picks_who_goes_first(order):
    state = fresh()
    assert state.phase is Phase.INITIAL_SELECTION and state.deadline is None
    state, _ = apply(state, order[0], Action.select_creature(1), T0)
    assert state.phase is Phase.INITIAL_SELECTION
    assert state.side(order[0]).active is None  # not revealed yet
    state, events = apply(state, order[1], Action.select_creature(2), T0)
    assert state.phase is Phase.NORMAL_TURN and state.turn_number == 1
    assert state.side(order[0]).active == 1 and state.side(order[1]).active == 2
    assert of_type(events, "first_turn_chosen")[0]["side"] == str(state.turn)
    assert state.deadline == T0 + timedelta(seconds=90)
    assert state.random.counter >= 1  # the chance draw was taken from the state


def test_chance_gives_each_side_the_first_turn_for_some_seeds_and_is_repeatable():
    firsts = {}
    for seed in range(40):
        state = fresh(seed)
        state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
        state, _ = apply(state, CPU, Action.select_creature(0), T0)
        firsts[seed] = state.turn
    assert set(firsts.values()) == {PLAYER, CPU}
    again = apply(
        apply(fresh(3), CPU, Action.select_creature(0), T0)[0],
        PLAYER,
        Action.select_creature(0),
        T0,
    )[0]
    assert again.turn is firsts[3]


def test_a_side_does_not_see_the_other_sides_choice_before_its_own():
    state, events = apply(fresh(), CPU, Action.select_creature(2), T0)
    seen = view(state, PLAYER)
    assert seen["opponent"]["active"] is None and seen["opponent"]["has_chosen"] is True
    assert "Foe2" not in json.dumps(seen)
    assert view_events(events, PLAYER) == [
        {"type": "creature_chosen", "side": "cpu", "phase": "initial_selection"}
    ]
    assert view(state, CPU)["you"]["choice"] == 2
    assert view_events(events, CPU)[0]["creature"] == 2


def test_normal_turns_alternate_and_each_has_its_own_deadline():
    state = prepare_battle()
    seen = []
    for second in range(1, 5):
        seen.append((state.turn, state.turn_number))
        now = T0 + timedelta(seconds=second)
        state, _ = apply(state, state.turn, Action.use_move(0), now)
        assert state.deadline == now + timedelta(seconds=90)
    assert seen == [(PLAYER, 1), (CPU, 2), (PLAYER, 3), (CPU, 4)]


def test_the_turn_length_is_a_setting():
    state = new_match(deck(), deck(), 1, T0, Settings(turn_seconds=30))
    state, _ = apply(state, PLAYER, Action.select_creature(0), T0)
    state, _ = apply(state, CPU, Action.select_creature(0), T0)
    assert state.deadline == T0 + timedelta(seconds=30)


# --- defeat and replacement ----------------------------------------------


def test_replacement_does_not_use_a_turn_and_the_order_continues():
    me = creature("Hammer", moves=[move(effects=[dmg(200)])])
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    assert state.phase is Phase.MANDATORY_REPLACEMENT and state.deadline is None
    assert state.selecting == (CPU,) and state.turn is CPU
    assert legal_actions(state, PLAYER) == [Action.forfeit()]
    assert [a.index for a in legal_actions(state, CPU) if a.kind == "select_creature"] == [1, 2]
    with pytest.raises(IllegalAction) as refused:
        act(state, Action.select_creature(0), CPU)
    assert refused.value.code == RefusalCode.CREATURE_DEFEATED
    turn_number = state.turn_number
    state, _ = act(state, Action.select_creature(2), CPU)
    assert state.phase is Phase.NORMAL_TURN and state.turn is CPU
    assert state.turn_number == turn_number == 2
    assert state.cpu.active == 2


def test_when_both_sides_must_replace_both_select_hidden_then_play_continues():
    me = creature(
        "Kamikaze", moves=[move(effects=[dmg(200), {"type": "self_damage", "amount": 200}])]
    )
    state = prepare_battle(player=[me])
    state, _ = act(state, Action.use_move(0))
    assert state.selecting == (PLAYER, CPU)
    state, _ = act(state, Action.select_creature(1), CPU)
    assert view(state, PLAYER)["opponent"]["active"] is None  # hidden until both chose
    assert legal_actions(state, CPU) == [Action.forfeit()]
    state, _ = act(state, Action.select_creature(2), PLAYER)
    assert state.phase is Phase.NORMAL_TURN and state.turn is CPU
    assert (state.player.active, state.cpu.active) == (2, 1)


def test_defeating_all_opposing_creatures_wins_and_the_match_is_a_finished_state():
    me = creature("Hammer", moves=[move(effects=[dmg(200)])])
    state = prepare_battle(player=[me])
    for replacement in (1, 2):
        state, _ = act(state, Action.use_move(0))
        state, _ = act(state, Action.select_creature(replacement), CPU)
        state = pass_turn(state)
    state, _ = act(state, Action.use_move(0))
    assert state.phase is Phase.FINISHED and state.winner is PLAYER
    assert state.finish_reason is FinishReason.ALL_DEFEATED
    assert state.turn is None and state.deadline is None
    assert legal_actions(state, PLAYER) == [] and legal_actions(state, CPU) == []
    with pytest.raises(IllegalAction) as refused:
        act(state, Action.forfeit(), CPU)
    assert refused.value.code == RefusalCode.MATCH_FINISHED


# --- forfeit ----------------------------------------------------------------


@pytest.mark.parametrize("phase", ["initial_selection", "normal_turn", "mandatory_replacement"])
@pytest.mark.parametrize("side", [PLAYER, CPU])
def test_either_side_may_forfeit_in_any_phase_before_the_end(phase, side):
    if phase == "initial_selection":
        state = fresh()
    else:
        state = prepare_battle(player=[creature("Hammer", moves=[move(effects=[dmg(200)])])])
        if phase == "mandatory_replacement":
            state, _ = act(state, Action.use_move(0))
    assert state.phase == phase
    assert Action.forfeit() in legal_actions(state, side)
    state, events = apply(state, side, Action.forfeit(), T0 + timedelta(seconds=5))
    assert state.phase is Phase.FINISHED and state.winner is side.other
    assert state.finish_reason is FinishReason.FORFEIT
    assert events[0] == {"type": "forfeit", "side": str(side)}


# --- illegal actions ------------------------------------------------------


def _stunned_cpu():
    me = creature("Stunner", moves=[move(effects=[{"type": "stun", "turns": 1}])])
    state, _ = act(prepare_battle(player=[me]), Action.use_move(0))
    return state


def _after_power_card():
    state, _ = act(prepare_battle(), Action.play_power_card(0))
    return pass_turn(state)


def _one_creature_down():
    return defeated(prepare_battle(), PLAYER, 2)


ILLEGAL = [
    ("move during selection", fresh, PLAYER, Action.use_move(0), RefusalCode.WRONG_PHASE),
    (
        "select during a turn",
        prepare_battle,
        PLAYER,
        Action.select_creature(1),
        RefusalCode.WRONG_PHASE,
    ),
    ("not your turn", prepare_battle, CPU, Action.use_move(0), RefusalCode.NOT_YOUR_TURN),
    ("timeout not your turn", prepare_battle, CPU, Action.timeout(), RefusalCode.NOT_YOUR_TURN),
    ("unknown move", prepare_battle, PLAYER, Action.use_move(4), RefusalCode.UNKNOWN_MOVE),
    ("negative move", prepare_battle, PLAYER, Action.use_move(-1), RefusalCode.UNKNOWN_MOVE),
    (
        "unknown card",
        prepare_battle,
        PLAYER,
        Action.play_power_card(2),
        RefusalCode.UNKNOWN_POWER_CARD,
    ),
    ("unknown swap", prepare_battle, PLAYER, Action.swap(3), RefusalCode.UNKNOWN_CREATURE),
    ("swap to active", prepare_battle, PLAYER, Action.swap(0), RefusalCode.CREATURE_ALREADY_ACTIVE),
    ("swap to defeated", _one_creature_down, PLAYER, Action.swap(2), RefusalCode.CREATURE_DEFEATED),
    ("stunned", _stunned_cpu, CPU, Action.use_move(0), RefusalCode.STUNNED),
    (
        "discarded",
        _after_power_card,
        PLAYER,
        Action.play_power_card(0),
        RefusalCode.POWER_CARD_DISCARDED,
    ),
    (
        "select twice",
        lambda: apply(fresh(), PLAYER, Action.select_creature(0), T0)[0],
        PLAYER,
        Action.select_creature(1),
        RefusalCode.NOTHING_TO_SELECT,
    ),
    ("unknown creature", fresh, PLAYER, Action.select_creature(5), RefusalCode.UNKNOWN_CREATURE),
]


@pytest.mark.parametrize(
    ("build", "side", "action", "code"), [c[1:] for c in ILLEGAL], ids=[c[0] for c in ILLEGAL]
)
def test_an_illegal_action_raises_and_changes_nothing(build, side, action, code):
    state = build()
    before = state.to_dict()
    with pytest.raises(IllegalAction) as refused:
        apply(state, side, action, T0 + timedelta(seconds=30))
    assert refused.value.code == code
    assert state.to_dict() == before
    assert action not in legal_actions(state, side)


def test_not_enough_power_is_refused():
    me = creature("Costly", power=3, moves=[move(cost=4)])
    state = prepare_battle(player=[me])
    with pytest.raises(IllegalAction) as refused:
        act(state, Action.use_move(0))
    assert refused.value.code == RefusalCode.NOT_ENOUGH_POWER
    state = set_active(state, PLAYER, power=3)
    assert Action.use_move(0) not in legal_actions(state, PLAYER)
    exact = prepare_battle(player=[creature("Exact", power=4, moves=[move(cost=4)])])
    exact, _ = act(exact, Action.use_move(0))  # cost exactly equal to Power is fine
    assert exact.player.creatures[0].power == 0


def test_a_malformed_action_is_an_invalid_action():
    for data in (
        {},
        {"kind": "dance"},
        {"kind": "use_move"},
        {"kind": "use_move", "index": "1"},
        {"kind": "timeout", "index": 1},
        {"kind": "swap", "index": True},
    ):
        with pytest.raises(IllegalAction) as refused:
            Action.from_dict(data)
        assert refused.value.code == RefusalCode.INVALID_ACTION
    assert Action.from_dict({"kind": "swap", "index": 2}) == Action.swap(2)


# --- deadlines ----------------------------------------------------------------


def test_an_action_exactly_at_the_deadline_is_resolved_as_a_timeout():
    state = prepare_battle()
    deadline = state.deadline
    assert deadline is not None
    after, events = apply(state, PLAYER, Action.use_move(0), deadline)
    assert events[0] == {
        "type": "timeout",
        "side": "player",
        "reason": "deadline",
        "replaced_action": {"kind": "use_move", "index": 0},
    }
    assert not of_type(events, "damage") and active(after, CPU).hp == 100
    assert after.turn is CPU and after.deadline == deadline + timedelta(seconds=90)
    assert after.version == state.version + 1


def test_an_action_just_before_the_deadline_is_resolved():
    state = prepare_battle()
    assert state.deadline is not None
    after, events = apply(
        state, PLAYER, Action.use_move(0), state.deadline - timedelta(microseconds=1)
    )
    assert active(after, CPU).hp == 90 and not of_type(events, "timeout")


def test_expire_resolves_a_due_timeout_only():
    state = prepare_battle()
    assert state.deadline is not None
    early = state.deadline - timedelta(seconds=1)
    assert expire(state, early) == (state, [])
    expired, events = expire(state, state.deadline)
    assert events[0]["type"] == "timeout" and expired.turn is CPU
    assert expired == apply(state, PLAYER, Action.timeout(), state.deadline)[0]
    assert expire(fresh(), T0 + timedelta(days=1)) == (fresh(), [])  # selection: no deadline


def test_a_late_timeout_still_runs_the_end_of_turn_step():
    me = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 5, "turns": 1}])])
    state, _ = act(prepare_battle(player=[me]), Action.use_move(0))
    assert state.deadline is not None
    state, _ = expire(state, state.deadline + timedelta(hours=1))
    assert active(state, CPU).hp == 95


def test_a_forfeit_after_the_deadline_comes_after_the_overdue_timeout():
    state = prepare_battle()
    assert state.deadline is not None
    late = state.deadline + timedelta(seconds=1)
    after, events = apply(state, CPU, Action.forfeit(), late)
    assert [e["type"] for e in events][:1] == ["timeout"]
    assert after.winner is PLAYER and after.finish_reason is FinishReason.FORFEIT


def test_a_forfeit_is_ignored_when_the_overdue_timeout_already_ended_the_match():
    me = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 50, "turns": 1}])])
    state, _ = act(prepare_battle(player=[me]), Action.use_move(0))
    state = defeated(defeated(state, CPU, 1), CPU, 2)
    state = set_active(state, CPU, hp=10)
    assert state.deadline is not None
    after, events = apply(state, PLAYER, Action.forfeit(), state.deadline)
    assert after.winner is PLAYER and after.finish_reason is FinishReason.ALL_DEFEATED
    assert events[-1] == {"type": "action_ignored", "side": "player", "action": "forfeit"}


def test_the_other_sides_turn_action_after_the_deadline_is_still_not_its_turn():
    state = prepare_battle()
    assert state.deadline is not None
    with pytest.raises(IllegalAction) as refused:
        apply(state, CPU, Action.use_move(0), state.deadline)
    assert refused.value.code == RefusalCode.NOT_YOUR_TURN


def test_the_engine_takes_timezone_aware_times_only():
    with pytest.raises(ValueError):
        apply(prepare_battle(), PLAYER, Action.use_move(0), datetime(2026, 3, 1, 12))


# --- state dict and views -------------------------------------------------------


def test_new_matches_store_rules_version_2_and_the_dict_round_trips():
    state = prepare_battle()
    data = state.to_dict()
    assert data["affinity_rules_version"] == 2
    assert json.loads(json.dumps(data)) == data
    assert MatchState.from_dict(data) == state
    assert MatchState.from_dict(json.loads(json.dumps(data))).to_dict() == data


def test_a_state_with_an_unknown_rules_version_is_refused():
    data = prepare_battle().to_dict()
    data["affinity_rules_version"] = 3
    with pytest.raises(ValueError):
        MatchState.from_dict(data)


def test_the_view_shows_own_cards_and_the_opponents_public_face_only():
    secret = power_card("Secret Weapon", [dmg(5)])
    foe = creature("Visible", moves=[move("Taunt", effects=[dmg(1)])])
    me = creature("Venom", moves=[move(effects=[{"type": "poison", "amount": 1, "turns": 2}])])
    state = prepare_battle(player=[me], cpu=[foe, creature("HiddenBench")], cpu_cards=[secret])
    state, _ = act(state, Action.use_move(0))
    seen = view(state, PLAYER)
    text = json.dumps(seen)
    assert "Secret Weapon" not in text and "HiddenBench" not in text
    assert "seed" not in text and "random" not in text
    assert seen["opponent"]["active"]["name"] == "Visible"
    assert seen["opponent"]["active"]["statuses"]["poison"]["amount"] == 1
    assert seen["opponent"]["power_cards_in_hand"] == 2
    assert seen["opponent"]["creatures_left"] == 3
    assert [c["name"] for c in seen["you"]["creatures"]] == ["Venom", "Bench1", "Bench2"]
    assert seen["your_turn"] is False and seen["legal_actions"] == [{"kind": "forfeit"}]
    cpu_view = view(state, CPU)
    assert cpu_view["your_turn"] is True
    assert {"kind": "play_power_card", "index": 0} in cpu_view["legal_actions"]
    state, _ = act(state, Action.play_power_card(0))
    assert view(state, PLAYER)["opponent"]["played_power_cards"][0]["name"] == "Secret Weapon"
    assert view(state, PLAYER)["opponent"]["power_cards_in_hand"] == 1


def test_the_input_state_is_never_mutated():
    state = prepare_battle()
    before = state.to_dict()
    for action in legal_actions(state, PLAYER):
        act(state, action)
    assert state.to_dict() == before
