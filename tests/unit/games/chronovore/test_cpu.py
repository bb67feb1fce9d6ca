"""The computer's seat: same rules, its own plan, never a peek at hidden cards."""

from games.chronovore import CHRONOVORE_CPU, engine
from games.chronovore.actions import Action, ActionKind
from games.chronovore.cpu import plan_row
from games.chronovore.state import Interference, Settings

from .support import T0, A, B, event, hero, monster, prepare, reward


def run_cpu(state, seat=A):
    """The CPU's steps until it locks in."""
    steps = []
    while not state.side(seat).locked:
        action = CHRONOVORE_CPU(state, seat)
        steps.append(action)
        state, _ = engine.apply(state, seat, action, T0)
    return state, steps


def test_the_cpu_never_plays_a_fight_it_would_lose():
    deadly = monster(9, 30, reward("coins", amount=9), name="Deadly")
    state = prepare(a_hand=(deadly,), a_hero=hero(10))
    state, steps = run_cpu(state)
    assert steps == [Action.lock()]


def test_the_cpu_places_what_pays_and_locks_in():
    coins = monster(0, 1, reward("coins", amount=2), name="Coin Imp")
    toll = event(2, reward("armor", amount=6), name="Toll")
    state = prepare(a_hand=(toll, coins))
    state, steps = run_cpu(state)
    assert [s.kind for s in steps] == [ActionKind.PLACE, ActionKind.PLACE, ActionKind.LOCK]
    assert [i.card.name for i in state.side(A).slots[:2]] == ["Coin Imp", "Toll"]


def test_the_cpu_asks_the_same_thing_twice_and_nothing_once_locked():
    state = prepare(a_hand=(monster(0, 1, reward("coins", amount=2)),))
    assert CHRONOVORE_CPU(state, A) == CHRONOVORE_CPU(state, A)
    locked, _ = engine.apply(state, A, Action.lock(), T0)
    assert CHRONOVORE_CPU(locked, A) is None and CHRONOVORE_CPU(locked, "c") is None


def test_the_cpu_rearranges_a_row_it_did_not_plan():
    bad = monster(0, 1, name="Nothing")  # no reward: worth nothing
    good = monster(0, 1, reward("armor", amount=2), name="Shell")
    state = prepare(a_row=(bad,), a_hand=(good,))
    state, steps = run_cpu(state)
    assert steps[0] == Action.take_back(0)
    assert state.side(A).slots[0].card.name == "Shell"


def test_the_cpu_plans_around_waiting_interference():
    fair = monster(2, 2, reward("armor", amount=8), name="Fair")
    settings = Settings()
    assert plan_row(hero(4), [_in(fair)], Interference(), settings)
    assert not plan_row(hero(4), [_in(fair)], Interference(monster_initiative=True), settings)


def test_the_cpu_does_not_look_at_the_opponents_row():
    state = prepare(a_hand=(monster(0, 1, reward("coins", amount=2)),))
    other = prepare(a_hand=(monster(0, 1, reward("coins", amount=2)),), b_row=(monster(5, 5),))
    assert CHRONOVORE_CPU(state, A) == CHRONOVORE_CPU(other, A)
    _ = B


def _in(card):
    from games.chronovore.state import InPlay

    return InPlay(1, card)
