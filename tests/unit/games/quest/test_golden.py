"""The engine plays exactly as it did: seeded matches against digests recorded before
the engine's speed work (issue 20), and states serialised by that code still load and
replay to the same end.

Every step of every match is hashed: the acting side, the action, the events, the
state's dict and both sides' legal actions (and, for the random games, both views).
The digests in ``data/golden.json`` were computed by the engine as of commit
49743aa; a change that alters any rule, number, chance draw, event or the stored
JSON shape changes a digest. To record them again (only for a deliberate rules
change): ``.venv/bin/python -m tests.unit.games.quest.test_golden --write``.

Three kinds of games: the CPU policy on both sides (the starter decks and random
decks against the CPU deck, as ``bench/engine.py`` plays them); random legal play
with swaps, timeouts, late actions, sweeper expiries and forfeits (as
test_properties); and states of that play serialised mid-match by the old code,
which must load, serialise back identically and replay their remaining log to the
recorded final state.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from deckyard import balance
from games.quest import (
    Action,
    ActionKind,
    Deck,
    MatchState,
    Phase,
    apply,
    cpu_action,
    expire,
    legal_actions,
    new_match,
    replay,
    view,
)
from games.quest.cpu import CPU_DECK
from games.quest.rules import _candidates, accepted_at_once, legal_actions_by_refusal, refusal
from games.quest.state import SIDES, Side
from tests.unit.games.quest.support import catalogue

DATA = Path(__file__).parent / "data" / "golden.json"
T0 = datetime(2026, 12, 1, tzinfo=UTC)
STEP = timedelta(seconds=3)
GAPS = [1, 1, 1, 2, 30, 89, 90, 91, 600]
MAX_STEPS = 400

_ENTRIES = catalogue()
OUT_OF_RANGE = (Action.use_move(4), Action.use_move(-1), Action.play_power_card(2), Action.swap(3))
CREATURE_NAMES = sorted(n for n, e in _ENTRIES.items() if e["kind"] == "creature")
POWER_NAMES = sorted(n for n, e in _ENTRIES.items() if e["kind"] == "power_card")


def starter(affinity: str) -> tuple[str, ...]:
    creatures = sorted(
        n
        for n, e in _ENTRIES.items()
        if e["kind"] == "creature"
        and e["body"].get("starter")
        and e["body"].get("affinity") == affinity
        and e["body"].get("rarity") == "Common"
        and not e["body"].get("evolved")
    )
    return (*creatures, "Field Kit", "Reserve Focus")


STARTERS = {affinity: starter(affinity) for affinity in ("Wit", "Grit", "Spark")}
CPU_NAMES = (*CPU_DECK.creatures, *CPU_DECK.power_cards)


def deck_of(names: Sequence[str]) -> Deck:
    return balance.deck(_ENTRIES, names)


def random_names(rng: random.Random) -> tuple[str, ...]:
    return (
        *(rng.choice(CREATURE_NAMES) for _ in range(3)),
        *(rng.choice(POWER_NAMES) for _ in range(2)),
    )


def canonical(value: Any) -> bytes:
    return json.dumps(value, sort_keys=True, separators=(",", ":")).encode()


class Trace:
    """A running hash of everything a match did."""

    def __init__(self) -> None:
        self._hash = hashlib.sha256()

    def add(self, value: Any) -> None:
        self._hash.update(canonical(value))
        self._hash.update(b";")

    def state(self, state: MatchState, views: bool = False) -> None:
        self.add(state.to_dict())
        for side in SIDES:
            legal = legal_actions(state, side)
            assert legal == legal_actions_by_refusal(state, side)  # listed = accepted
            for action in (*_candidates(state, side), *OUT_OF_RANGE):
                # The engine's shortcut accepts nothing that refusal refuses.
                if accepted_at_once(state, side, action):
                    assert refusal(state, side, action) is None, action
            self.add([a.to_dict() for a in legal])
            if views:
                self.add(view(state, side))

    def hexdigest(self) -> str:
        return self._hash.hexdigest()


def mover(state: MatchState) -> Side | None:
    pending = state.pending
    if not pending:
        return state.turn
    return Side.CPU if Side.CPU in pending else pending[0]


def cpu_game(player: Sequence[str], cpu: Sequence[str], seed: int) -> str:
    """Both sides by the CPU policy, as bench/engine.py plays them."""
    state = new_match(deck_of(player), deck_of(cpu), seed, T0)
    trace = Trace()
    trace.state(state)
    now = T0
    while state.phase is not Phase.FINISHED and state.version < MAX_STEPS:
        side = mover(state)
        assert side is not None
        action = cpu_action(state, side)
        assert action is not None
        now += STEP
        state, events = apply(state, side, action, now)
        trace.add([str(side), action.to_dict(), events])
        trace.state(state)
    return trace.hexdigest()


def random_game(
    seed: int, keep_at: int | None = None
) -> tuple[str, dict[str, Any] | None, list[Any], dict[str, Any]]:
    """Random legal play (swaps, timeouts, late actions, expiries, forfeits).

    Returns the digest, the state's dict after ``keep_at`` log entries (if reached),
    the log entries after it (as JSON) and the final state's dict.
    """
    rng = random.Random(seed)
    player, cpu = random_names(rng), random_names(rng)
    state = new_match(deck_of(player), deck_of(cpu), rng.getrandbits(63), T0)
    trace = Trace()
    trace.add([player, cpu])
    trace.state(state, views=True)
    now = T0
    kept: dict[str, Any] | None = None
    log: list[tuple[Side, Action, datetime]] = []
    for _ in range(MAX_STEPS):
        if state.phase is Phase.FINISHED:
            break
        if keep_at is not None and len(log) == keep_at and kept is None:
            kept = state.to_dict()
        now += timedelta(seconds=rng.choice(GAPS))
        if rng.randrange(10) == 0 and state.turn is not None:
            expired, events = expire(state, now)
            if expired is not state:
                log.append((state.turn, Action.timeout(), now))
                state = expired
                trace.add(["expire", events])
                trace.state(state, views=True)
            continue
        if rng.randrange(60) == 0:
            side, action = rng.choice(SIDES), Action.forfeit()
        else:
            options = {
                s: [a for a in legal_actions(state, s) if a.kind is not ActionKind.FORFEIT]
                for s in SIDES
            }
            side = rng.choice([s for s in SIDES if options[s]])
            action = rng.choice(options[side])
        state, events = apply(state, side, action, now)
        log.append((side, action, now))
        trace.add([str(side), action.to_dict(), now.isoformat(), events])
        trace.state(state, views=True)
    rest = [
        [str(side), action.to_dict(), moment.isoformat()]
        for side, action, moment in log[keep_at or 0 :]
    ]
    return trace.hexdigest(), kept, rest, state.to_dict()


CPU_GAMES = [
    *((STARTERS[a], CPU_NAMES, 1000 + i) for a in ("Wit", "Grit", "Spark") for i in range(12)),
    *((random_names(random.Random(i)), CPU_NAMES, 2000 + i) for i in range(24)),
    *((random_names(random.Random(-i)), random_names(random.Random(i + 99)), i) for i in range(24)),
]
RANDOM_GAMES = list(range(60))
STORED_GAMES = [(seed, 3 + seed % 25) for seed in range(100, 116)]


def record() -> dict[str, Any]:
    stored = []
    for seed, keep_at in STORED_GAMES:
        _, kept, rest, final = random_game(seed, keep_at)
        assert kept is not None, "pick a shorter keep_at"
        stored.append({"seed": seed, "state": kept, "rest": rest, "final": final})
    return {
        "cpu": [cpu_game(p, c, s) for p, c, s in CPU_GAMES],
        "random": [random_game(seed)[0] for seed in RANDOM_GAMES],
        "stored": stored,
    }


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def test_cpu_against_cpu_plays_exactly_as_recorded(golden: dict[str, Any]) -> None:
    assert [cpu_game(p, c, s) for p, c, s in CPU_GAMES] == golden["cpu"]


def test_random_legal_play_plays_exactly_as_recorded(golden: dict[str, Any]) -> None:
    assert [random_game(seed)[0] for seed in RANDOM_GAMES] == golden["random"]


def test_states_stored_by_the_old_engine_load_and_replay_to_the_same_end(
    golden: dict[str, Any],
) -> None:
    assert len(golden["stored"]) == len(STORED_GAMES)
    for entry in golden["stored"]:
        state = MatchState.from_dict(entry["state"])
        assert state.to_dict() == entry["state"]
        log = [
            (Side(side), Action.from_dict(action), datetime.fromisoformat(moment))
            for side, action, moment in entry["rest"]
        ]
        final = replay(state, log)
        assert final.to_dict() == entry["final"], entry["seed"]


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.unit.games.quest.test_golden --write")
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(record(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")
