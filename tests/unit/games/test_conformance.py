"""Every engine of games/ through the same properties (open_spiel's random simulation test).

Seeded random matches to their end, every seat choosing among its legal actions (and,
with several seats to act at once, a random one of them going next, so the
interleavings vary). At every state:
- ``legal_actions`` never raises, and each legal action applies;
- an action that is another seat's and not this one's is refused, the state unchanged;
- ``apply`` never mutates its input; a state survives its JSON round trip;
- hidden information: a seat's version moves by one on each of its own actions and by
  at most one on another's; where it does not move (the other seat's hidden action),
  that seat's view, its legal actions and what it may see of the action's events are
  all unchanged. A seat whose view changed always sees a new version.
And the replay of the seed and the log equals the live play.

The setups are the benches' (bench/*_engine.py), as tests/unit/games/play_seeded.py.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from games.kit.chance import uniform
from games.kit.refusal import Refusal

ROOT = Path(__file__).resolve().parents[3]
T0 = datetime(2026, 12, 1, tzinfo=UTC)
STEP = timedelta(seconds=2)
MAX_ACTIONS = 600  # then time runs out on whoever is waited for
MATCHES = 4


@dataclass(frozen=True)
class Setup:
    engine: Any
    settings: Any
    seats: dict[str, Any]
    # What a seat plays, given the state, the seat and a seed: a uniform legal action
    # unless the game's host changes a client's action first (TerraKard marks answers).
    choose: Callable[[Any, str, int], Any] | None = None


# Leaving ends a match at once: chosen as often as any other action, few matches would
# reach their later rounds. It is still played, by the last seed (``LEAVER``).
LEAVING = frozenset({"forfeit", "give_up"})
LEAVER = MATCHES - 1


def _uniform_choice(engine: Any) -> Callable[[Any, str, int], Any]:
    def choose(state: Any, seat: str, seed: int) -> Any:
        legal = engine.legal_actions(state, seat)
        staying = [a for a in legal if engine.action_to_json(a).get("kind") not in LEAVING]
        if staying and seed % MATCHES != LEAVER:
            legal = staying
        index, _ = uniform(seed, f"conformance:{seat}:{engine.version(state)}", 0, len(legal))
        return legal[index]

    return choose


def _bench(name: str) -> Any:
    if str(ROOT / "bench") not in sys.path:
        sys.path.insert(0, str(ROOT / "bench"))
    return __import__(name)


def quest() -> Setup:
    from games.quest import engine
    from games.quest.game import QUEST

    bench = _bench("engine")
    catalogue = bench.load_catalogue(ROOT)
    starter = bench.engine_deck(catalogue, bench.starter_names(catalogue, "Wit"))
    seats = {"player": starter, "cpu": bench.engine_deck(catalogue, bench.cpu_names())}
    return Setup(QUEST, engine.Settings(), seats)


def chronovore() -> Setup:
    from games.chronovore.balance import SEATS
    from games.chronovore.game import CHRONOVORE
    from games.chronovore.state import Settings

    bench = _bench("chronovore_engine")
    decks = bench.decks(bench.parse_args(["--matches", "1", "--seed", "3"]))[0]
    return Setup(CHRONOVORE, Settings(), dict(zip(SEATS, decks, strict=True)))


def terrakard() -> Setup:
    from games.terrakard import engine
    from games.terrakard.game import TERRAKARD
    from games.terrakard.state import ATTACKER, DEFENDER

    bench = _bench("terrakard_engine")
    made = bench.setup(bench.parse_args(["--seed", "5"]))
    attacker = bench.attacker_policy(made.answer_keys)  # never gives up
    return Setup(
        TERRAKARD,
        engine.Settings(),
        {ATTACKER: made.attacker, DEFENDER: made.defense},
        choose=lambda state, seat, seed: attacker(state, seed),
    )


SETUPS = {"quest": quest, "chronovore": chronovore, "terrakard": terrakard}


def _seen(engine: Any, state: Any, seat: str) -> tuple[Any, ...]:
    """All a seat may know of a state: its version, its view, its legal actions."""
    legal = [engine.action_to_json(a) for a in engine.legal_actions(state, seat)]
    return engine.seen_version(state, seat), engine.view(state, seat), legal


def _check_refusal_of_others_actions(engine: Any, state: Any, seat: str) -> None:
    """Another seat's legal action that is not ``seat``'s own: refused, nothing changed."""
    own = {
        json.dumps(engine.action_to_json(a), sort_keys=True)
        for a in engine.legal_actions(state, seat)
    }
    before = engine.to_json(state)
    for other in engine.waiting_for(state):
        for action in engine.legal_actions(state, other)[:3]:
            if other == seat or json.dumps(engine.action_to_json(action), sort_keys=True) in own:
                continue
            with pytest.raises(Refusal):
                engine.apply(state, seat, action, T0 + timedelta(days=1))
            assert engine.to_json(state) == before


def _step(
    engine: Any, state: Any, seat: str, action: Any, now: datetime, seats: list[str]
) -> tuple[Any, list[Any]]:
    """Apply one action and check what every seat may see of it."""
    known = {s: _seen(engine, state, s) for s in seats}
    before = engine.to_json(state)
    after, events = engine.apply(state, seat, action, now)
    assert engine.to_json(state) == before, "apply mutated its input"
    for other in seats:
        was_version, was_view, was_legal = known[other]
        version, view, legal = _seen(engine, after, other)
        moved = version - was_version
        if other == seat:
            assert moved == 1, f"{seat}'s own action moved its version by {moved}"
            continue
        assert moved in (0, 1), f"{other}'s version moved by {moved}"
        if moved == 0:  # the action was hidden from ``other``: nothing of it shows
            assert view == was_view, f"{other}'s view changed on {seat}'s hidden action"
            assert legal == was_legal
            assert engine.view_events(events, other) == []
    return after, events


def play(setup: Setup, seed: int) -> None:
    engine = setup.engine
    choose = setup.choose or _uniform_choice(engine)
    state = engine.new_match(setup.settings, setup.seats, seed, T0)
    seats = list(setup.seats)
    log: list[tuple[str, Any, datetime]] = []
    now, actions = T0, 0
    while engine.results(state) is None:
        waiting = engine.waiting_for(state)
        deadline = engine.deadline(state)
        if actions >= MAX_ACTIONS or not waiting or (deadline and now + STEP >= deadline):
            assert deadline is not None, "a match that waits for nobody has a deadline"
            now = max(now, deadline)
            for seat, action in engine.timeouts(state):
                state, _ = _step(engine, state, seat, action, now, seats)
                log.append((seat, action, now))
            actions = 0
            continue
        index, _ = uniform(seed, f"conformance:who:{engine.version(state)}", 0, len(waiting))
        seat = waiting[index]
        _check_refusal_of_others_actions(engine, state, seat)
        now += STEP
        action = choose(state, seat, seed)
        state, _ = _step(engine, state, seat, action, now, seats)
        log.append((seat, action, now))
        actions += 1
        stored = json.loads(json.dumps(engine.to_json(state)))
        assert engine.to_json(engine.from_json(stored)) == engine.to_json(state)
    for seat in seats:  # a finished match refuses everything and waits for nobody
        assert engine.waiting_for(state) == []
        assert engine.legal_actions(state, seat) == []
    replayed = engine.replay(setup.settings, setup.seats, seed, T0, log)
    assert engine.to_json(replayed) == engine.to_json(state), "the replay differs"


@pytest.mark.parametrize("game", sorted(SETUPS))
def test_every_engine_holds_the_protocol_s_properties_over_seeded_random_matches(game):
    setup = SETUPS[game]()
    for seed in range(MATCHES):
        play(setup, 7000 + seed)


def test_a_chronovore_seat_sees_nothing_of_the_other_row_before_its_lock():
    """The rulebook's face-down cards, and docs/chronovore.md's "Before a seat locks, its
    opponent sees nothing of its row": the hand count, the version and the events stay."""
    from games.chronovore.actions import Action, ActionKind

    setup = chronovore()
    engine = setup.engine
    first, second = list(setup.seats)
    state = engine.new_match(setup.settings, setup.seats, 11, T0)
    watched = _seen(engine, state, second)
    places = [a for a in engine.legal_actions(state, first) if a.kind is ActionKind.PLACE]
    state, events = engine.apply(state, first, places[0], T0 + STEP)
    assert _seen(engine, state, second) == watched
    assert engine.view_events(events, second) == []
    state, _ = engine.apply(state, first, Action.lock(), T0 + 2 * STEP)
    version, view, _ = _seen(engine, state, second)
    assert version == watched[0] + 1  # the lock shows, and only as one step
    assert view["opponent"]["locked"] is True
    assert view["opponent"]["hand_count"] == watched[1]["opponent"]["hand_count"] - 1
