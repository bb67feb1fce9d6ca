"""Properties of random legal play (STYLE "Tests": Hypothesis for engines).

Both sides act through ``legal_actions`` only, with random gaps in time (so
some actions arrive late and become timeouts), sweeper ``expire`` calls and
the odd forfeit, on decks drawn from the real seed cards (every effect and
condition of the vocabulary occurs in them).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.quest import (
    Action,
    ActionKind,
    Deck,
    FinishReason,
    IllegalAction,
    MatchState,
    Phase,
    apply,
    creature_from_definition,
    expire,
    legal_actions,
    new_match,
    power_card_from_definition,
    replay,
    view,
)
from games.quest.state import SIDES, Side
from games.quest.statuses import Statuses
from tests.unit.games.quest.support import T0, catalogue

T = TypeVar("T")
_ENTRIES = catalogue()
CREATURES = [
    creature_from_definition(f"seed-{name}", entry["body"])
    for name, entry in _ENTRIES.items()
    if entry["kind"] == "creature"
]
POWER_CARDS = [
    power_card_from_definition(f"seed-{name}", entry["body"])
    for name, entry in _ENTRIES.items()
    if entry["kind"] == "power_card"
]
GAPS = [1, 1, 1, 2, 30, 89, 90, 91, 600]  # seconds between two requests
MAX_STEPS = 90


# Bounded so the file runs in seconds: ~40 steps a game, every state checked.
def bounded(examples: int) -> settings:
    return settings(
        max_examples=examples, deadline=None, suppress_health_check=[HealthCheck.too_slow]
    )


decks = st.builds(
    lambda creatures, cards: Deck(tuple(creatures), tuple(cards)),
    st.lists(st.sampled_from(CREATURES), min_size=3, max_size=3),
    st.lists(st.sampled_from(POWER_CARDS), min_size=2, max_size=2),
)
matches = st.builds(
    lambda player, cpu, seed: new_match(player, cpu, seed, T0),
    decks,
    decks,
    st.integers(min_value=0, max_value=2**63 - 1),
)


@dataclass
class Game:
    initial: MatchState
    state: MatchState
    log: list[tuple[Side, Action, datetime]] = field(default_factory=list)
    states: list[MatchState] = field(default_factory=list)


class Rolls:
    """The choices of one game, from one Hypothesis-drawn seed.

    A private ``random.Random`` (never the global one): drawing every small choice
    from Hypothesis one by one made the runs several times slower.
    """

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def pick(self, options: Sequence[T]) -> T:
        return self._random.choice(options)


rolls = st.integers(0, 2**64).map(Rolls)


def _step(rolls: Rolls, game: Game, now: datetime) -> None:
    state = game.state
    if rolls.pick(range(10)) == 0 and state.turn is not None:
        expired, _ = expire(state, now)
        if expired is not state:  # the sweeper fired: log what it did
            game.log.append((state.turn, Action.timeout(), now))
            game.state = expired
        return
    if rolls.pick(range(50)) == 0:
        side, action = rolls.pick(SIDES), Action.forfeit()
    else:
        options = {
            s: [a for a in legal_actions(state, s) if a.kind is not ActionKind.FORFEIT]
            for s in SIDES
        }
        side = rolls.pick([s for s in SIDES if options[s]])
        action = rolls.pick(options[side])
    game.state, _ = apply(state, side, action, now)
    game.log.append((side, action, now))


def play(rolls: Rolls, initial: MatchState, on_state=None) -> Game:
    game = Game(initial, initial, states=[initial])
    now = T0
    for _ in range(MAX_STEPS):
        if game.state.phase is Phase.FINISHED:
            break
        now += timedelta(seconds=rolls.pick(GAPS))
        before = game.state
        _step(rolls, game, now)
        if game.state is not before:
            game.states.append(game.state)
            if on_state is not None:
                on_state(before, game.state, now)
    return game


def check_invariants(state: MatchState) -> None:
    for side in SIDES:
        own = state.side(side)
        assert len(own.creatures) == 3 and len(own.power_cards) == 2  # cards are conserved
        assert set(own.discarded) <= {0, 1}
        for creature in own.creatures:
            assert 0 <= creature.hp <= creature.card.max_hp
            assert 0 <= creature.power <= creature.card.max_power
            assert 0 <= creature.statuses.dodge <= 3
            if creature.defeated:
                assert creature.statuses == Statuses()
    if state.phase is Phase.FINISHED:
        assert state.winner in SIDES and state.finish_reason is not None
        assert state.turn is None and state.deadline is None
        assert legal_actions(state, Side.PLAYER) == legal_actions(state, Side.CPU) == []
        if state.finish_reason is FinishReason.ALL_DEFEATED:
            assert not state.side(state.winner.other).living
        return
    assert state.winner is None
    assert state.player.living and state.cpu.living
    if state.phase is Phase.NORMAL_TURN:
        assert state.turn in SIDES and state.deadline is not None
        for side in SIDES:
            active = state.side(side).active_creature
            assert active is not None and active.alive
    else:
        assert state.deadline is None and state.pending


@bounded(40)
@given(initial=matches, choices=rolls)
def test_random_legal_play_keeps_every_invariant(initial, choices):
    def on_state(before: MatchState, after: MatchState, now: datetime) -> None:
        assert after.version == before.version + 1
        check_invariants(after)
        data_dict = after.to_dict()
        assert MatchState.from_dict(json.loads(json.dumps(data_dict))) == after
        for side in SIDES:
            json.dumps(view(after, side))

    game = play(choices, initial, on_state)
    check_invariants(game.state)


@bounded(60)
@given(initial=matches, choices=rolls)
def test_apply_accepts_exactly_the_listed_actions_and_never_changes_its_input(initial, choices):
    candidates = [
        Action(kind, index)
        for kind in (
            ActionKind.USE_MOVE,
            ActionKind.PLAY_POWER_CARD,
            ActionKind.SWAP,
            ActionKind.SELECT_CREATURE,
        )
        for index in range(-1, 5)
    ] + [Action.timeout(), Action.forfeit()]

    def probe(before: MatchState, after: MatchState, now: datetime) -> None:
        side = choices.pick(SIDES)
        action = choices.pick(candidates)
        snapshot = after.to_dict()
        try:
            apply(after, side, action, T0)  # T0 is before every deadline
        except IllegalAction:
            assert action not in legal_actions(after, side)
        else:
            assert action in legal_actions(after, side)
        assert after.to_dict() == snapshot

    play(choices, initial, probe)


@bounded(100)
@given(initial=matches, choices=rolls)
def test_replay_of_the_log_equals_live_play_whatever_the_global_random_does(initial, choices):
    game = play(choices, initial)
    assert replay(game.initial, game.log) == game.state
    # Same seed and actions, with the global random reseeded and drawn from in the
    # middle of the game: the same state (the engine never uses it).
    state = MatchState.from_dict(game.initial.to_dict())  # as the service stored it
    for step, (side, action, now) in enumerate(game.log):
        random.seed(step)
        random.random()
        state, _ = apply(state, side, action, now)
        assert state == game.states[step + 1]
    assert state.to_dict() == game.state.to_dict()
