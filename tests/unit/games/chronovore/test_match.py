"""A whole match (rulebook, "A match"): shuffle, draw 7, five rounds, a card a round,
the hand limit; the engine protocol, replay and determinism."""

import random
from datetime import timedelta

import pytest

from games.chronovore import CHRONOVORE, CHRONOVORE_CPU, engine
from games.chronovore.actions import Action
from games.chronovore.balance import cards_from_entries, class_deck
from games.chronovore.state import MatchState, Phase, Settings
from games.kit.chance import RandomState

from .support import T0, A, B, core_set_entries, deck, later, lock_both, monster, new


def test_each_player_draws_7_from_a_shuffled_deck_of_30():
    state = new(seed=3)
    for side in state.sides:
        assert len(side.hand) == 7 and len(side.deck) == 23 and side.slots == (None,) * 4
    order = [i.uid for i in (*state.side(A).hand, *state.side(A).deck)]
    assert sorted(order) == list(range(1, 31)) and order != list(range(1, 31))
    assert order != [i.uid for i in (*new(seed=4).side(A).hand, *new(seed=4).side(A).deck)]


def test_a_deck_that_is_not_legal_cannot_start_a_match():
    with pytest.raises(ValueError, match="not legal"):
        engine.new_match({A: deck(size=29), B: deck()}, 1, T0)
    with pytest.raises(ValueError, match="not legal"):
        engine.new_match({A: deck(*[monster(name="Same")] * 5), B: deck()}, 1, T0)


def test_one_card_is_drawn_at_the_start_of_rounds_2_to_5_and_the_match_has_5_rounds():
    state = new()
    sizes = [len(state.side(A).hand)]
    for _ in range(4):
        state, _ = lock_both(state)
        sizes.append(len(state.side(A).hand))
    assert sizes == [7, 8, 9, 10, 11] and state.round == 5
    state, events = lock_both(state)
    assert state.phase is Phase.FINISHED and state.round == 5
    assert [e["type"] for e in events][-2:] == ["duel", "match_finished"]


def test_a_card_drawn_at_the_start_of_a_round_past_12_is_discarded():
    state = new(opening_hand=12)
    state, events = lock_both(state)
    assert len(state.side(A).hand) == 12 and len(state.side(A).discard) == 1
    assert [e["type"] for e in events if e.get("seat") == A][-1] == "card_burned"
    state = new(opening_hand=11)
    state, _ = lock_both(state)
    assert len(state.side(A).hand) == 12 and state.side(A).discard == ()


def test_the_protocol_says_who_is_waited_for_and_the_results():
    state = new()
    assert CHRONOVORE.waiting_for(state) == [A, B]
    assert CHRONOVORE.deadline(state) == T0 + timedelta(minutes=2)
    state, _ = CHRONOVORE.apply(state, A, Action.lock(), T0)
    assert CHRONOVORE.waiting_for(state) == [B] and CHRONOVORE.results(state) is None
    state, _ = CHRONOVORE.apply(state, A, Action.forfeit(), T0)
    assert CHRONOVORE.waiting_for(state) == [] and CHRONOVORE.results(state) == {
        A: "left",
        B: "win",
    }
    assert CHRONOVORE.deadline(state) is None


def core_decks(seed):
    cards = cards_from_entries(core_set_entries())
    rng = RandomState(seed=seed, stream="test-decks")
    first, rng = class_deck(cards, "captain", rng)
    second, _ = class_deck(cards, "priest", rng)
    return {A: first, B: second}


def cpu_match(seed, meddle=False):
    """Two CPUs, the clock moving 30 s an action; the log as a host keeps it."""
    decks = core_decks(seed)
    state = CHRONOVORE.new_match(Settings(), decks, seed, T0)
    log, now = [], T0
    while CHRONOVORE.results(state) is None:
        for seat in CHRONOVORE.waiting_for(state):
            if meddle:
                random.random()  # the engine must not draw on the global random
            action = CHRONOVORE_CPU(state, seat)
            now += timedelta(seconds=30)
            if now >= CHRONOVORE.deadline(state):
                for timed_seat, timed in CHRONOVORE.timeouts(state):
                    state, _ = CHRONOVORE.apply(state, timed_seat, timed, now)
                    log.append((timed_seat, timed, now))
                break
            state, _ = CHRONOVORE.apply(state, seat, action, now)
            log.append((seat, action, now))
    return decks, state, log


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_replay_of_the_seed_and_action_log_gives_the_match_live_play_gave(seed):
    decks, live, log = cpu_match(seed)
    replayed = CHRONOVORE.replay(Settings(), decks, seed, T0, log)
    assert replayed == live
    assert CHRONOVORE.to_json(replayed) == CHRONOVORE.to_json(live)


def test_the_same_seed_gives_the_same_match_whatever_the_global_random_does():
    random.seed(99)
    _, first, _ = cpu_match(5)
    _, second, _ = cpu_match(5, meddle=True)
    assert first == second


def test_a_state_survives_its_json():
    _, state, _ = cpu_match(2)
    assert MatchState.from_dict(CHRONOVORE.to_json(state)) == state
    fresh = new()
    assert CHRONOVORE.from_json(CHRONOVORE.to_json(fresh)) == fresh
    with pytest.raises(ValueError):
        MatchState.from_dict({**fresh.to_dict(), "format": 0})


def test_actions_survive_their_json():
    for action in (
        Action.place(3, 1),
        Action.move(0, 2),
        Action.take_back(3),
        Action.lock(),
        Action.forfeit(),
    ):
        assert CHRONOVORE.action_from_json(CHRONOVORE.action_to_json(action)) == action


def test_time_alone_locks_and_resolves_a_round_on_a_moved_clock():
    state = new()
    state, _ = CHRONOVORE.expire(state, later(120))
    assert state.round == 2 and state.deadline == later(240)
    assert CHRONOVORE.expire(state, later(239))[0] is state


@pytest.mark.parametrize("seed", range(6))
def test_cards_are_conserved_and_legal_actions_never_raise(seed):
    decks, state, log = cpu_match(seed)
    for seat in state.seats:
        side = state.side(seat)
        held = [*side.deck, *side.hand, *side.discard, *(s for s in side.slots if s)]
        uids = [c.uid for c in held]
        assert len(uids) == len(set(uids)) and set(range(1, 31)) <= set(uids)
        assert CHRONOVORE.legal_actions(state, seat) == []
    _ = decks, log
